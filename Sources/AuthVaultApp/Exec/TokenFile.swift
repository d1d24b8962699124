import FoundationEssentials
import SecureFiles
import SystemPlumbing

/// `exec --token-file`'s file: a valid token in a 0600 file inside a new 0700 directory, rewritten atomically ahead
/// of each expiry for as long as the command runs, then removed with its directory. For tools that read a token
/// from a file each time they need one (a path in their configuration), in a job longer than one token's life.
public final class TokenFile: Sendable {
    /// The file the command reads.
    public let path: String
    private let directory: String
    /// Whether the directory is gone: a rewrite happens under this lock, so it never races the removal.
    private let removed: Locked<Bool>
    private let keeping: Task<Void, Never>

    /// Creates the directory and writes the first token before it returns, then keeps the file fresh.
    /// - Parameters:
    ///   - parent: where the private directory is made ($XDG_RUNTIME_DIR, else the temporary directory).
    ///   - token: a valid token whenever asked (`Application.helperToken`).
    ///   - now: Unix seconds by this machine's clock, which the token's expiry is given by.
    public init(
        in parent: String, now: @escaping @Sendable () -> Double,
        token: @escaping @Sendable () async throws(ApplicationError) -> HelperToken
    ) async throws(ApplicationError) {
        let directory: String
        do {
            directory = try PrivateDirectory.createUnique(in: parent, prefix: "authvault-token-")
        } catch {
            throw ApplicationError(error)
        }
        let path = FilePath.join(directory, "token")
        let first: HelperToken
        do {
            first = try await token()
        } catch {
            try? PrivateDirectory.remove(directory)
            throw error
        }
        do {
            try SecureFile.write(Array(first.token.utf8), to: path, durable: false)
        } catch {
            try? PrivateDirectory.remove(directory)
            throw ApplicationError(error)
        }
        self.directory = directory
        self.path = path
        let removed = Locked(false)
        self.removed = removed
        keeping = AheadOfExpiry.keepRenewing(
            expiresAt: first.expiresAt, now: now, schedule: Self.delay(remaining:), retryAfter: 5
        ) {
            guard let next = try? await token() else { return nil }
            // Never a partial file: the reader sees the old token or the new one.
            let written = removed.withLock { isRemoved in
                !isRemoved && (try? SecureFile.write(Array(next.token.utf8), to: path, durable: false)) != nil
            }
            return written ? next.expiresAt : nil
        }
    }

    deinit {
        remove()
    }

    /// Stops rewriting and removes the file and its directory.
    public func remove() {
        keeping.cancel()
        removed.withLock { isRemoved in
            isRemoved = true
            try? PrivateDirectory.remove(directory)
        }
    }

    /// Seconds until the file is rewritten, for a token with `remaining` seconds left: at 80% of what remains, or
    /// 60 seconds before the expiry when that is earlier; never sooner than half a second, so a token the store does
    /// not renew yet (or could not) is asked for again shortly rather than in a busy loop.
    static func delay(remaining: Double) -> Double {
        let atFraction = 0.8 * remaining
        let beforeExpiry = remaining - 60
        return max(0.5, beforeExpiry > 0 ? min(atFraction, beforeExpiry) : atFraction)
    }
}

extension Application {
    /// `exec --token-file`'s file of `kind` tokens for `profile`: in $XDG_RUNTIME_DIR when set, else in $TMPDIR
    /// (or /tmp). `isExplicit` as for `helperToken`: unnamed, on a machine that configures none, the agent chooses.
    public func tokenFile(_ kind: TokenKind, profile: String? = nil, isExplicit: Bool) async throws(ApplicationError)
        -> TokenFile
    {
        let parent = ["XDG_RUNTIME_DIR", "TMPDIR"].lazy.compactMap { self.environment[$0] }.first { $0.hasPrefix("/") }
        return try await TokenFile(in: parent ?? "/tmp", now: now) { () async throws(ApplicationError) in
            try await self.helperToken(kind, profile: profile, isExplicit: isExplicit)
        }
    }
}
