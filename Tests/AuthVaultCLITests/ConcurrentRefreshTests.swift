import Foundation
import TestSupport
import Testing

/// Refresh as `authvault token` does it in separate processes, through a fault proxy in front of moto: transient
/// trouble never costs the session, a rejected refresh token ends it, and many processes at once share one refresh.
/// Sessions are put in their refresh window by replacing the stored access and ID tokens with unsigned copies
/// that expire when the test wants (the store decodes a cached token's `iat` and `exp` without verifying it).
@Suite struct ConcurrentRefreshTests {
    /// Faults on every attempt the client makes (4 in all: the CLI's retry policy).
    enum TransientFault: String, CaseIterable, Sendable {
        case serverError, serverErrorPage, throttled, tooManyRequests, connectionReset, truncatedBody, malformedJSON

        var faults: [FaultProxy.Fault] {
            switch self {
            case .serverError: Array(repeating: .cognitoError("InternalErrorException", status: 500), count: 4)
            case .serverErrorPage: Array(repeating: .htmlPage(status: 500), count: 4)
            case .throttled:
                Array(repeating: .cognitoError("TooManyRequestsException", message: "Rate exceeded"), count: 4)
            case .tooManyRequests:
                Array(
                    repeating: .cognitoError("TooManyRequestsException", status: 429, message: "Rate exceeded"),
                    count: 4)
            case .connectionReset: Array(repeating: .reset, count: 4)
            case .truncatedBody: Array(repeating: .truncate, count: 4)
            case .malformedJSON: Array(repeating: .malformed, count: 4)
            }
        }

        /// A 200 whose body is not the JSON promised is not retried; everything else is, up to 4 attempts.
        var attempts: Int { self == .malformedJSON ? 1 : 4 }

        /// The fault matrix's name for it.
        var scenario: String {
            switch self {
            case .serverError: "Cognito 500 (InternalErrorException)"
            case .serverErrorPage: "Cognito 500 as an HTML page"
            case .throttled: "Cognito throttling (400 TooManyRequestsException)"
            case .tooManyRequests: "HTTP 429 Too Many Requests"
            case .connectionReset: "connection reset"
            case .truncatedBody: "truncated body"
            case .malformedJSON: "200 with broken JSON"
            }
        }
    }

    @Test(arguments: TransientFault.allCases, [true, false])
    func aTransientFaultOnRefreshKeepsTheSession(fault: TransientFault, expired: Bool) async throws {
        let profile = try await SignedInProfile.make()
        let survival = try await expectSessionSurvives(
            profile, faults: fault.faults, expired: expired, attempts: fault.attempts)
        try await survival.record("\(fault.scenario) on every attempt", expired: expired, profile: profile)
    }

    /// Every attempt stalls: the per-attempt time-out (10 s) and then the operation's deadline (20 s) end the refresh.
    @Test(arguments: [true, false])
    func aStallPastTheDeadlineKeepsTheSession(expired: Bool) async throws {
        let profile = try await SignedInProfile.make()
        let survival = try await expectSessionSurvives(
            profile, faults: Array(repeating: .stall(seconds: 25), count: 4),
            expired: expired, attempts: 2)
        #expect(survival.waited < 27, "the deadline bounds the wait: \(Int(survival.waited)) s")
        try await survival.record(
            "stall past the deadline", expired: expired, profile: profile,
            extra: [("over within 27 s", survival.waited < 27)])
    }

    /// What a faulted refresh did, for the fault matrix.
    struct Survival {
        let waited: TimeInterval
        /// Exit 5 with the session kept (expired), or the current token served (still valid).
        let answeredAsPromised: Bool
        let vaultUntouched: Bool
        /// Once the fault was gone the same session gave a token moto issued, and the vault holds it.
        let healed: Bool

        func record(
            _ scenario: String, expired: Bool, profile: SignedInProfile, extra: [FaultFact] = [],
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let facts: [FaultFact] =
                [
                    (expired ? "token exits 5, session kept" : "current token served", answeredAsPromised),
                    ("vault untouched", vaultUntouched), ("next token refreshes", healed),
                ] + extra
            try await FaultMatrix.record(
                "\(scenario) (\(expired ? "token expired" : "token about to expire"))", facts,
                tokensLost: healed ? 0 : 1, sweeping: profile.cli, sourceLocation: sourceLocation)
        }
    }

    /// With the token expired `token` exits 5 (network) and prints nothing; while it is still valid (inside the
    /// mandatory window) it prints the current token and exits 0. Either way the vault is not written, and once
    /// the faults are gone the same session refreshes.
    /// Returns how long the faulted `token` took and what held.
    private func expectSessionSurvives(
        _ profile: SignedInProfile, faults: [FaultProxy.Fault], expired: Bool, attempts: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Survival {
        let aged = try await profile.cli.ageTokens(expiringIn: expired ? -120 : 55)
        let stub = try #require(aged["accessToken"] as? String)
        let before = try #require(profile.cli.recordBytes)
        let baseline = try await profile.proxy.records().count
        try await profile.proxy.inject(faults)

        let started = Date()
        let output = try await profile.cli.run(["token"])
        let waited = Date().timeIntervalSince(started)
        let servedCurrent = output.stdoutText == stub + "\n"
        let answeredAsPromised =
            expired
            ? output.status == 5 && output.stdout.isEmpty && output.stderrText.contains("The stored session is kept.")
            : output.status == 0 && servedCurrent
        let vaultUntouched = profile.cli.recordBytes == before
        if expired {
            #expect(output.status == 5, "\(output.stderrText)", sourceLocation: sourceLocation)
            #expect(output.stdout.isEmpty, sourceLocation: sourceLocation)
            #expect(
                output.stderrText.contains("The stored session is kept."), "\(output.stderrText)",
                sourceLocation: sourceLocation)
            #expect(
                output.stderrText.components(separatedBy: "network is back").count <= 2,
                "said once: \(output.stderrText)",
                sourceLocation: sourceLocation)
        } else {
            #expect(output.status == 0, "\(output.stderrText)", sourceLocation: sourceLocation)
            #expect(servedCurrent, "the current token, still valid", sourceLocation: sourceLocation)
        }
        #expect(vaultUntouched, "the vault is not written", sourceLocation: sourceLocation)
        #expect(
            try await profile.operations(after: baseline) == Array(repeating: "InitiateAuth", count: attempts),
            sourceLocation: sourceLocation)

        // Every process can tell why the session is not usable right now.
        let status = try await profile.cli.run(["status"])
        #expect(
            status.stdoutText.contains("the last refresh failed"), "\(status.stdoutText)",
            sourceLocation: sourceLocation)

        try await profile.proxy.inject([])
        let healed = try await profile.cli.run(["token"])
        #expect(healed.status == 0, "\(healed.stderrText)", sourceLocation: sourceLocation)
        let afterwards = try await profile.cli.run(["status"])
        #expect(!afterwards.stdoutText.contains("the last refresh failed"), sourceLocation: sourceLocation)
        let fresh = healed.stdoutText.trimmingCharacters(in: .newlines)
        let owner = try await profile.pool.owner(ofAccessToken: fresh)
        #expect(owner == SignedInProfile.username, "a token moto issued", sourceLocation: sourceLocation)
        let record = try await profile.cli.storedRecord()
        let stored = sameSecret(record?["accessToken"] as? String, fresh)
        let keptRefreshToken = sameSecret(record?["refreshToken"] as? String, aged["refreshToken"] as? String)
        #expect(stored, "the new token is in the vault", sourceLocation: sourceLocation)
        #expect(keptRefreshToken, "no rotation: the refresh token stays", sourceLocation: sourceLocation)
        return Survival(
            waited: waited, answeredAsPromised: answeredAsPromised, vaultUntouched: vaultUntouched,
            healed: healed.status == 0 && owner == SignedInProfile.username && stored)
    }

    enum Rejection: String, CaseIterable, Sendable {
        /// AdminUserGlobalSignOut at moto: its REFRESH_TOKEN_AUTH answers NotAuthorizedException.
        case revokedAtMoto
        /// The answer Cognito gives a rotated-out refresh token.
        case reuseDetected
    }

    @Test(arguments: Rejection.allCases)
    func aRefreshTokenCognitoRejectsEndsTheSession(rejection: Rejection) async throws {
        let profile = try await SignedInProfile.make()
        switch rejection {
        case .revokedAtMoto: try await profile.pool.signOutEverywhere(SignedInProfile.username)
        case .reuseDetected:
            try await profile.proxy.inject([
                .cognitoError("RefreshTokenReuseException", message: "Refresh token has been reused")
            ])
        }
        try await profile.cli.ageTokens(expiringIn: -120)
        let baseline = try await profile.proxy.records().count

        let output = try await profile.cli.run(["token"])
        #expect(output.status == 3, "\(output.stderrText)")
        #expect(output.stdout.isEmpty)
        #expect(output.stderrText.contains("authvault login"))
        #expect(try await profile.operations(after: baseline) == ["InitiateAuth"], "a rejection is not retried")
        let record = try await profile.cli.storedRecord()
        let cleared = record?["accessToken"] == nil && record?["idToken"] == nil && record?["refreshToken"] == nil
        #expect(cleared, "the ended session is gone from the vault")
        // A later process still says why the session is unusable: it ended, it was not merely never there.
        let status = try await profile.cli.run(["status", "--json"])
        #expect(status.status == 3)
        let problem =
            (try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])?["problem"] as? String ?? ""
        #expect(
            ["rejected", "revoked", "expired", "ended"].contains { problem.contains($0) },
            "status gives the reason the session ended, not \"\(problem)\"")
        #expect(try await profile.cli.run(["token"]).status == 3)
        profile.cli.expectNoSecretLeaks()
    }

    /// Inside the advisory window (less than 5 minutes of the hour left, more than 1) `token` serves a valid token
    /// and the refresh that the window calls for is carried through before the process ends, so callers are not
    /// handed ever shorter-lived tokens until the mandatory window blocks them.
    @Test func inTheAdvisoryWindowTheRefreshIsCarriedThrough() async throws {
        let profile = try await SignedInProfile.make()
        let aged = try await profile.cli.ageTokens(expiringIn: 200)
        let stub = try #require(aged["accessToken"] as? String)
        let baseline = try await profile.proxy.records().count

        let output = try await profile.cli.run(["token"])
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(try await profile.operations(after: baseline) == ["InitiateAuth"], "one refresh upstream")
        let record = try await profile.cli.storedRecord()
        let stored = record?["accessToken"] as? String ?? ""
        let replaced = stored != stub
        let printed = output.stdoutText.trimmingCharacters(in: .newlines)
        let servedValid = printed == stub || printed == stored
        let keptRefreshToken = sameSecret(record?["refreshToken"] as? String, aged["refreshToken"] as? String)
        #expect(servedValid, "the current token, or the refreshed one")
        #expect(replaced, "the refreshed tokens are in the vault")
        #expect(keptRefreshToken, "no rotation: the refresh token stays")
        if replaced {
            let owner = try await profile.pool.owner(ofAccessToken: stored)
            #expect(owner == SignedInProfile.username, "a token moto issued")
        }
        profile.cli.expectNoSecretLeaks()
    }

    /// A refresh that fails inside the advisory window costs nothing: the current token is served and nothing is
    /// written.
    @Test func inTheAdvisoryWindowAFailedRefreshServesTheCurrentToken() async throws {
        let profile = try await SignedInProfile.make()
        let aged = try await profile.cli.ageTokens(expiringIn: 200)
        let stub = try #require(aged["accessToken"] as? String)
        let before = try #require(profile.cli.recordBytes)
        let baseline = try await profile.proxy.records().count
        try await profile.proxy.inject(TransientFault.serverErrorPage.faults)

        let output = try await profile.cli.run(["token"])
        #expect(output.status == 0, "\(output.stderrText)")
        let servedCurrent = output.stdoutText == stub + "\n"
        #expect(servedCurrent, "the current token")
        #expect(profile.cli.recordBytes == before)
        #expect(try await profile.operations(after: baseline).count <= 4)
        profile.cli.expectNoSecretLeaks()
    }

    /// An outage while several processes need a refresh: each reports the network (exit 5), not a lock it waited
    /// for behind another process's doomed refresh, and together they take about one operation deadline, not one each.
    @Test func processesWaitingOutAnOutageTogetherAllReportTheNetwork() async throws {
        let profile = try await SignedInProfile.make()
        try await profile.cli.ageTokens(expiringIn: -120)
        let before = try #require(profile.cli.recordBytes)
        try await profile.proxy.inject(Array(repeating: .stall(seconds: 25), count: 12))

        let started = Date()
        let results = try await profile.cli.runConcurrently(3, ["token"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(results.map(\.status) == [5, 5, 5], "\(results.map(\.stderrText))")
        #expect(elapsed < 30, "\(Int(elapsed)) s for three processes")
        #expect(profile.cli.recordBytes == before)
        profile.cli.expectNoSecretLeaks()
    }

    /// 20 processes on an expired session: all of them wait for the profile lock (the test holds it until every one
    /// has read the expired session and opened the lock file), then exactly one refreshes and the others adopt its
    /// tokens from the vault.
    @Test func twentyProcessesOnAnExpiredSessionRefreshOnce() async throws {
        let profile = try await SignedInProfile.make()
        let aged = try await profile.cli.ageTokens(expiringIn: -120)
        let expired = try #require(aged["accessToken"] as? String)
        let baseline = try await profile.proxy.records().count
        let cli = profile.cli

        let lock = try HeldFileLock(path: cli.lockPath)
        async let outputs = cli.runConcurrently(20, ["token"])
        let waiting = try await OffPool.run { HeldFileLock.waitForOpeners(of: cli.lockPath, count: 20, timeout: 20) }
        lock.release()
        let results = try await outputs
        #expect(waiting == 20, "every process reached the lock before it was released")

        #expect(
            results.allSatisfy { $0.status == 0 },
            "\(results.map(\.status)) \(results.map(\.stderrText).filter { !$0.isEmpty })")
        let printed = Set(results.map { $0.stdoutText.trimmingCharacters(in: .newlines) })
        let distinct = printed.count
        #expect(distinct == 1, "all print the same token")
        let token = printed.first ?? ""
        let owner = try await profile.pool.owner(ofAccessToken: token)
        #expect(owner == SignedInProfile.username, "a token moto issued")
        let replaced = !sameSecret(token, expired)
        #expect(replaced, "not the expired token")
        let newClaims = TestJWT.claims(of: token)
        let expiry = try #require(newClaims?["exp"] as? Int)
        #expect(Double(expiry) > Date().timeIntervalSince1970 + 3000, "a new token, valid for moto's hour")
        #expect(try await profile.operations(after: baseline) == ["InitiateAuth"], "exactly one refresh upstream")
        let record = try await cli.storedRecord()
        let stored = sameSecret(record?["accessToken"] as? String, token)
        let keptRefreshToken = sameSecret(record?["refreshToken"] as? String, aged["refreshToken"] as? String)
        #expect(stored, "the printed token is the one in the vault")
        #expect(keptRefreshToken, "no rotation: the refresh token stays")
        cli.expectNoSecretLeaks()
    }

    /// The warm path: a valid token is served from the vault, with no call at all.
    @Test func twentyProcessesOnAValidSessionCallNobody() async throws {
        let profile = try await SignedInProfile.make()
        let stored = try #require(try await profile.cli.storedRecord()?["accessToken"] as? String)
        let baseline = try await profile.proxy.records().count
        let before = try #require(profile.cli.recordBytes)

        let results = try await profile.cli.runConcurrently(20, ["token"])
        let allServedStored = results.allSatisfy { $0.status == 0 && $0.stdoutText == stored + "\n" }
        #expect(allServedStored, "every process prints the stored token")
        #expect(try await profile.operations(after: baseline).isEmpty)
        #expect(profile.cli.recordBytes == before)
        profile.cli.expectNoSecretLeaks()
    }
}

/// An exclusive `flock` on a file, as the CLI's profile lock takes it, held by the test until released.
final class HeldFileLock: @unchecked Sendable {
    private var descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TestFixtureError("cannot open \(path)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { throw TestFixtureError("\(path) is locked already") }
    }

    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    /// Waits until `count` other processes have `path` open (the CLI opens its lock file, then polls for the
    /// lock); returns how many had it open when the wait ended.
    static func waitForOpeners(of path: String, count: Int, timeout: TimeInterval) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        var openers = 0
        repeat {
            openers = processes(holding: path)
            if openers >= count { break }
            usleep(10_000)
        } while Date() < deadline
        return openers
    }

    /// How many processes other than this one have a descriptor open on `path` (from /proc/PID/fd, which shows
    /// the canonical path).
    private static func processes(holding path: String) -> Int {
        guard let resolved = realpath(path, nil) else { return 0 }
        defer { free(resolved) }
        let canonical = String(cString: resolved)
        let files = FileManager.default
        let me = String(getpid())
        let pids = ((try? files.contentsOfDirectory(atPath: "/proc")) ?? []).filter {
            $0 != me && $0.allSatisfy(\.isNumber)
        }
        return pids.filter { pid in
            let descriptors = (try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return descriptors.contains {
                (try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == canonical
            }
        }.count
    }
}
