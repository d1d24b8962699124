import AuthCrypto
import AuthStore
import AuthVaultApp
import Foundation
import SystemPlumbing
import TestSupport

/// A user pool and app client of its own in moto, and an application in a home of its own whose profile `work`
/// signs in there, its tokens in the encrypted file vault: the use cases run in-process against a real peer.
struct MotoProfile {
    static let passphrase = "moto profile vault passphrase"

    let moto: MotoServer
    let poolId: String
    let clientId: String
    let home: TemporaryDirectory
    let application: Application

    static func make(variables: [String: String] = [:]) async throws -> MotoProfile {
        let moto = try await MotoServer.shared()
        let pool = try await moto.call(
            "CreateUserPool", ["PoolName": "app-\(UUID().uuidString.prefix(8))", "AutoVerifiedAttributes": ["email"]])
        guard let poolId = (pool["UserPool"] as? [String: Any])?["Id"] as? String else {
            throw TestFixtureError("no pool id")
        }
        let created = try await moto.call(
            "CreateUserPoolClient",
            [
                "UserPoolId": poolId, "ClientName": "authvault-app-test", "ReadAttributes": ["email"],
                "ExplicitAuthFlows": ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
            ])
        guard let clientId = (created["UserPoolClient"] as? [String: Any])?["ClientId"] as? String else {
            throw TestFixtureError("no client id")
        }
        let home = try TemporaryDirectory()
        var environment = [
            "HOME": home.path, "AUTHVAULT_VAULT_PASSPHRASE": passphrase, "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
        ]
        environment.merge(variables) { $1 }
        let application = Application(environment: EnvironmentVariables(environment))
        var settings = ProfileSettings()
        settings.userPoolId = poolId
        settings.clientId = clientId
        settings.endpoint = moto.endpoint
        settings.jwksURL = moto.jwksURL(poolId: poolId)
        settings.vault = .file
        settings.authFlow = .password
        try application.configStore.save(ConfigFile(profiles: ["work": settings]))
        return MotoProfile(moto: moto, poolId: poolId, clientId: clientId, home: home, application: application)
    }

    /// A confirmed user with a permanent password (or, with `permanent: false`, one Cognito asks to change it).
    func createUser(_ username: String, password: String, permanent: Bool = true) async throws {
        try await moto.call(
            "AdminCreateUser",
            [
                "UserPoolId": poolId, "Username": username, "TemporaryPassword": password,
                "MessageAction": "SUPPRESS",
                "UserAttributes": [
                    ["Name": "email", "Value": "\(username)@example.com"],
                    ["Name": "email_verified", "Value": "true"],
                ],
            ])
        if permanent {
            try await moto.call(
                "AdminSetUserPassword",
                ["UserPoolId": poolId, "Username": username, "Password": password, "Permanent": true])
        }
    }

    /// The user's status in moto (CONFIRMED, UNCONFIRMED, ...), nil when there is no such user.
    func userStatus(_ username: String) async -> String? {
        (try? await moto.call("AdminGetUser", ["UserPoolId": poolId, "Username": username]))?["UserStatus"] as? String
    }

    /// Signs `username` in to the profile with the password on standard input, nobody at a terminal; `newPassword`,
    /// when given, answers Cognito's request for one.
    @discardableResult
    func signIn(
        _ username: String, password: String, newPassword: String? = nil, choices: SignInChoices = SignInChoices(),
        notices: Locked<[SignInNotice]> = Locked([])
    ) async throws -> SessionSummary {
        let session = try await application.openProfile(named: "work")
        let answers = Answers(
            piped: newPassword == nil ? [.password] : [.password, .newPassword],
            input: GivenInput(password + "\n" + (newPassword.map { $0 + "\n" } ?? "")), prompter: NoPrompter())
        var signIn = UserPoolSignIn(session: session, answers: answers, choices: choices) { notice in
            notices.withLock { $0.append(notice) }
        }
        return try await signIn.run(username: username, flow: .password)
    }

    static func newPassword() -> String { "Pw-\(UUID().uuidString.prefix(12))!a1" }
}

/// A person at a terminal who gives these answers in turn, and records every prompt they were shown.
final class ScriptedPrompter: SecretPrompter {
    private let answers: Locked<[String]>
    let prompts = Locked<[String]>([])

    init(_ answers: [String]) { self.answers = Locked(answers) }

    var isInteractive: Bool { true }
    var canAskForSecret: Bool { true }

    func readSecret(prompt: String) -> SecretBytes? { readLine(prompt: prompt).map { SecretBytes(utf8: $0) } }

    func readLine(prompt: String) -> String? {
        prompts.withLock { $0.append(prompt) }
        return answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
