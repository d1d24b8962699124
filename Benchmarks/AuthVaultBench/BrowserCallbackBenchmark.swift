import AuthCrypto
import AuthStore
import CognitoAuth
import FoundationEssentials
import HTTPTransport
import Loopback
import SystemPlumbing
import TokenVault
import TokenVerification

#if canImport(Glibc)
    import Glibc
#endif

/// A browser sign-in's last stretch, as `authvault login` runs it: from the browser's callback reaching the loopback
/// listener to the tokens being in the vault (code exchange, ID-token signature, claims and nonce, access-token
/// check, the vault write under the profile lock), minus the token endpoint's own handling time, which the stand-in
/// (Benchmarks/Scripts/token_endpoint.py) reports in Server-Timing. The JWKS is fetched once, before the rounds, as
/// one login fetches it once.
enum BrowserCallbackBenchmark {
    static func run(rounds: Int) async throws -> [Row] {
        let clientId = "bench-client"
        let server = try ScriptProcess(script: "token_endpoint.py", arguments: [clientId])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let transport = TimedTransport(CurlTransport(configuration: CurlTransportConfiguration()))
        let verifier = TokenVerifier(
            issuer: base, clientId: clientId, keys: JWKSCache(url: base + "/jwks.json", transport: transport))
        let redirectURI = "http://127.0.0.1:53690/callback"
        let client = try OAuthClient(
            configuration: OAuthClientConfiguration(
                endpoints: OAuthEndpoints(authorization: base + "/authorize", token: base + "/token"),
                clientId: clientId, redirectURI: redirectURI),
            transport: transport, verifier: verifier)
        let root = try makeTemporaryDirectory(prefix: "authvault-bench-browser")
        defer { try? spawnAndWait(["/bin/rm", "-rf", root]) }
        // One vault object keeps the key in memory: nothing for the keyring, and no key left in it.
        let fileVault = EncryptedFileVault(
            directory: root + "/vault", passphrase: .fixed(SecretBytes(utf8: "benchmark passphrase")),
            keyCache: .disabled)

        var backends: [(String, any VaultBackend)] = [("file vault", fileVault)]
        if ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil {
            backends.append(
                (
                    "secret service",
                    SecretServiceVault(
                        changeStamps: fileVault.changeStamps,
                        bindings: ["browser-bench": .init(userPoolId: "us-east-1_Bench", clientId: clientId)],
                        timeout: VaultBenchmarks.secretServiceTimeout)
                ))
        }
        var rows: [Row] = []
        for (name, vault) in backends {
            let store = AuthStore(
                profile: "browser-bench", vault: vault,
                lock: ProfileLock(directory: root + "/locks", profile: "browser-bench"),
                authority: NoAuthority(), refreshesInBackground: false)
            var spans = Samples()
            for round in -3..<rounds {  // three warm-up rounds: the JWKS fetch, the file vault's key derivation
                let span = try await signIn(
                    client: client, store: store, transport: transport, redirectURI: redirectURI)
                if round >= 0 { spans.add(span) }
                _ = await store.signOut(global: false)
            }
            rows.append(
                Row(
                    name: "browser sign-in: callback to tokens in the \(name)", ours: formatSpread(spans),
                    peer: "goal < 50 ms", ratio: ratio(spans.median, over: 0.050)))
            try? await vault.delete(profile: "browser-bench")
        }
        return rows
    }

    /// One sign-in; the seconds from sending the callback to the vault write, minus the token endpoint's time.
    private static func signIn(client: OAuthClient, store: AuthStore, transport: TimedTransport, redirectURI: String)
        async throws -> Double
    {
        let request = try client.authorizationRequest(identityProvider: "Google")
        let listener = try LoopbackListener(redirectURIs: [redirectURI], state: request.state, timeout: .seconds(10))
        // The "browser": the authorize endpoint redirects at once; where it points is the callback.
        let redirect = try await transport.send(HTTPRequest(method: "GET", url: request.url))
        guard let callbackURL = redirect.header("Location") else {
            throw SpawnError.failed("the authorize endpoint gave no redirect", -1)
        }
        transport.resetServerTime()
        let started = monotonicNow()
        let browser = Task { try await transport.send(HTTPRequest(method: "GET", url: callbackURL)) }
        let callback = try await listener.waitForCallback()
        let tokens = try await client.exchange(try request.authorizationCode(fromCallback: callback.url), for: request)
        _ = try await store.signIn(browserTokens: tokens)
        let finished = monotonicNow()
        callback.respond(with: .success("Signed in"))
        _ = try await browser.value
        return finished - started - transport.serverTime
    }
}

/// The store never refreshes during the benchmark: the tokens it keeps last an hour.
private struct NoAuthority: SessionAuthority {
    func signIn(username: String, method: SignInMethod, device: RememberedDevice?) async throws(CognitoError)
        -> SignInStep
    {
        throw .invalidConfiguration("unused")
    }
    func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError) -> SignInStep {
        throw .invalidConfiguration("unused")
    }
    func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup {
        throw .invalidConfiguration("unused")
    }
    func refresh(_ session: StoredSession) async throws(CognitoError) -> CognitoTokens {
        throw .invalidConfiguration("unused")
    }
    func revoke(_ session: StoredSession) async throws(CognitoError) {}
    func globalSignOut(accessToken: SecretBytes) async throws(CognitoError) {}
    func confirmDevice(
        _ newDevice: NewDeviceMetadata, name: String, accessToken: SecretBytes
    ) async throws(CognitoError) -> (device: RememberedDevice, userConfirmationNecessary: Bool) {
        throw .invalidConfiguration("unused")
    }
    func setDeviceRemembered(_ remembered: Bool, deviceKey: String, accessToken: SecretBytes) async throws(CognitoError)
    {
        throw .invalidConfiguration("unused")
    }
}

/// Adds up what the server said it spent (Server-Timing `dur`, milliseconds) on the requests since the last reset.
private final class TimedTransport: HTTPTransport {
    private let inner: CurlTransport
    private let spent = Locked(0.0)

    init(_ inner: CurlTransport) { self.inner = inner }

    var serverTime: Double { spent.withLock { $0 } }
    func resetServerTime() { spent.withLock { $0 = 0 } }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let response = try await inner.send(request)
        if let timing = response.header("Server-Timing"), let range = timing.firstRange(of: "dur="),
            let milliseconds = Double(timing[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        {
            spent.withLock { $0 += milliseconds / 1000 }
        }
        return response
    }
}

/// A peer server script from Benchmarks/Scripts, started with python3; it prints its port first.
private final class ScriptProcess {
    let port: Int
    private let pid: Int32

    init(script: String, arguments: [String]) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/\(script)").path
        let command = "echo $$; exec python3 '\(path)' " + arguments.map { "'\($0)'" }.joined(separator: " ")
        guard let stream = popen(command, "r") else { throw SpawnError.failed(script, -1) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 64)
        while lines.count < 2, fgets(&buffer, 64, stream) != nil {
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            lines.append(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace })
        }
        guard lines.count == 2, let pid = Int32(lines[0]), let port = Int(lines[1]) else {
            throw SpawnError.failed(script, -1)
        }
        self.pid = pid
        self.port = port
    }

    func stop() { kill(pid, SIGKILL) }
}
