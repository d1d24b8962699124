import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// `ProfileSession.authorizedRequest` against moto and an API that checks the bearer token on its own
/// (bearer_api_server.py): the token attached, and on a 401 the session refreshed and the request sent once more.
@Suite struct AuthorizedRequestTests {
    struct Attempt: Decodable {
        let status: Int
        let reason: String
        let jti: String?
    }

    func startAPI(_ profile: MotoProfile, refusingFirst refusals: Int, log: String) async throws -> ScriptServer {
        try await ScriptServer.start(
            script: "bearer_api_server.py",
            arguments: [
                "--jwks-url", profile.moto.jwksURL(poolId: profile.poolId), "--issuer",
                MotoServer.issuer(poolId: profile.poolId),
                "--client-id", profile.clientId, "--token-use", "access", "--log", log, "--refuse-first",
                String(refusals),
            ])
    }

    /// `ada` signed in to a fresh profile, and an API that refuses its first `refusals` requests, with its log of
    /// attempts; the directories live as long as the value.
    struct Fixture {
        let session: ProfileSession
        let api: ScriptServer
        let log: String
        let directories: (MotoProfile, TemporaryDirectory)
    }

    func signedInAPI(refusingFirst refusals: Int) async throws -> Fixture {
        let profile = try await MotoProfile.make()
        try await profile.createUser("ada", password: "Ada-password-1!")
        try await profile.signIn("ada", password: "Ada-password-1!")
        let logs = try TemporaryDirectory()
        let log = logs.appending("attempts.jsonl")
        let api = try await startAPI(profile, refusingFirst: refusals, log: log)
        return Fixture(
            session: try await profile.application.openProfile(named: "work"), api: api, log: log,
            directories: (profile, logs))
    }

    func attempts(_ log: String) throws -> [Attempt] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Attempt.self, from: Data($0.utf8))
        }
    }

    /// An API that refuses a token it no longer takes: the session is refreshed, and the second request, with the new
    /// token, is the answer.
    @Test func aRefusedTokenIsRefreshedAndTheRequestSentOnceMore() async throws {
        let fixture = try await signedInAPI(refusingFirst: 1)
        let response = try await fixture.session.authorizedRequest(HTTPRequest(url: fixture.api.baseURL + "/whoami"))
        #expect(response.status == 200)
        let seen = try attempts(fixture.log)
        #expect(seen.map(\.reason) == ["revoked", "accepted"])
        #expect(
            seen.count == 2 && seen[0].jti != nil && seen[0].jti != seen[1].jti,
            "the second request carried the refreshed token")
    }

    /// An API that refuses every token: one retry, then its 401 is the answer, not a loop.
    @Test func aSecondRefusalIsTheAnswer() async throws {
        let fixture = try await signedInAPI(refusingFirst: 5)
        let response = try await fixture.session.authorizedRequest(HTTPRequest(url: fixture.api.baseURL + "/whoami"))
        #expect(response.status == 401)
        #expect(try attempts(fixture.log).count == 2)
    }

    /// Plain http to a host that is not loopback: refused before anything is sent, so the token never leaves.
    @Test func plainHTTPOffLoopbackIsRefusedBeforeSending() async throws {
        let fixture = try await signedInAPI(refusingFirst: 0)
        await #expect {
            try await fixture.session.authorizedRequest(HTTPRequest(url: "http://api.example.com/whoami"))
        } throws: { error in
            guard case .apiRequest(.failed(let cause, _))? = error as? ApplicationError else { return false }
            return cause.name == "HTTPError.insecureURL"
        }
    }
}
