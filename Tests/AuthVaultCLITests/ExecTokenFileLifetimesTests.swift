import Foundation
import TestSupport
import Testing

/// `exec --token-file` across several token lifetimes, against django-oauth-toolkit started with 8-second access
/// tokens: each renewal is a real refresh, rotating the refresh token under reuse protection, and every token the
/// command reads is checked at the server's protected resource (userInfo) the moment it is read.
@Suite struct ExecTokenFileLifetimesTests {
    static let lifetime = 8
    /// How long the command reads: almost four lifetimes.
    static let readingSeconds = 30

    /// Reads the file every 250 ms for `argv[2]` seconds, sending each token read to the userInfo URL `argv[1]`;
    /// prints one JSON object: the path, the file's and directory's modes seen, the reads the server refused, and
    /// each distinct token (a digest, never the token: the output is the test's) with when it was first read, how
    /// often, and the least time its `exp` had left at a read. django-oauth-toolkit revokes an access token when its
    /// refresh token rotates, before the file can hold the next one: a refusal the file's rewrite follows within a
    /// second is that window, not a stale token.
    static let reader = """
        import base64, hashlib, json, os, stat, sys, time, urllib.error, urllib.request
        path, userinfo, seconds = os.environ["AUTHVAULT_TOKEN_FILE"], sys.argv[1], float(sys.argv[2])
        def mode(p):
            return oct(stat.S_IMODE(os.stat(p).st_mode))
        def expiry(token):
            payload = token.split(".")[1]
            return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["exp"]
        start, modes, refused, tokens = time.time(), set(), [], []
        while time.time() - start < seconds:
            modes.add(mode(path) + " " + mode(os.path.dirname(path)))
            with open(path) as f:
                token = f.read()
            read = time.time()
            request = urllib.request.Request(userinfo, headers={"Authorization": "Bearer " + token})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    status = answer.status
            except urllib.error.HTTPError as error:
                status = error.code
            digest = hashlib.sha256(token.encode()).hexdigest()[:12]
            if not tokens or tokens[-1]["digest"] != digest:
                tokens.append({"digest": digest, "firstRead": round(read - start, 2), "reads": 0, "leastLeft": 99})
            tokens[-1]["reads"] += 1
            tokens[-1]["leastLeft"] = min(tokens[-1]["leastLeft"], round(expiry(token) - read, 2))
            if status != 200:
                # The server revokes a refreshed token's predecessor the moment it rotates: a read between that and
                # the file's rewrite is refused, and is no failure if the file holds the next token within a second.
                deadline = time.time() + 1
                while time.time() < deadline:
                    with open(path) as f:
                        if f.read() != token:
                            break
                    time.sleep(0.01)
                else:
                    refused.append({"digest": digest, "at": round(read - start, 2), "status": status})
            time.sleep(0.25)
        print(json.dumps({"path": path, "modes": sorted(modes), "refused": refused, "tokens": tokens}))
        """

    /// Signed in through the browser to a server whose access tokens last 8 s, `exec --token-file` runs a reader for
    /// almost four lifetimes: the server accepts every token read, at least four distinct ones are seen (three
    /// renewals), the file stays 0600 in a 0700 directory that is gone afterwards, and the last rotated refresh
    /// token still refreshes (a reused one would have revoked the whole family).
    @Test(.timeLimit(.minutes(2))) func everyTokenReadIsValidAtTheServerAcrossSeveralLifetimes() async throws {
        let server = try await OAuthServer.start(accessTokenLifetime: Self.lifetime)
        let profile = try await BrowserProfile.make(on: server)
        let login = try await profile.login(script: "scripted_browser.py", as: OAuthServer.poolUser, mode: "plain")
        try #require(login.status == 0, "\(login.stderrText)")
        let cli = profile.cli
        let signedIn = try #require(try await cli.storedRecord()?["refreshToken"] as? String)

        let run = try await cli.run([
            "exec", "--token-file", "--", PeerPython.path, "-c", Self.reader, server.baseURL + "/oauth2/userInfo",
            String(Self.readingSeconds),
        ])
        #expect(run.status == 0, "\(run.stderrText)")
        let data = Data(run.stdoutText.utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(run.stdoutText)")
        let tokens = report["tokens"] as? [[String: Any]] ?? []
        #expect((report["refused"] as? [Any])?.isEmpty == true, "tokens the server refused: \(report)")
        #expect(tokens.count >= 4, "three renewals or more: \(tokens)")
        // Rewritten when a fifth of the lifetime (1.6 s) is left, less the refresh: never kept to the last moment,
        // as it was while a `Date` header's whole seconds timed the refresh (0.1 to 0.3 s left, and some refused).
        #expect(tokens.allSatisfy { ($0["leastLeft"] as? Double ?? 0) > 0.4 }, "renewed ahead of expiry: \(tokens)")
        #expect(report["modes"] as? [String] == ["0o600 0o700"], "\(report)")
        let path = try #require(report["path"] as? String)
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))

        let rotated = try #require(try await cli.storedRecord()?["refreshToken"] as? String)
        expectSecret(rotated, differsFrom: signedIn, "each refresh rotated the refresh token")
        let refresh = try await cli.run(["refresh"])
        #expect(refresh.status == 0, "the last rotated refresh token is still good: \(refresh.stderrText)")
        #expect(run.stderr.isEmpty, "\(run.stderrText)")
        cli.expectNoSecretLeaks()
    }
}
