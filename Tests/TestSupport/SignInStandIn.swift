import Foundation

/// Tests/TestSupport/Scripts/sign_in_stand_in.py in front of moto: the tests' own emulation of remembered devices
/// (ConfirmDevice, device SRP, a remembered device skipping MFA), choice-based sign-in (USER_AUTH with e-mail and
/// SMS codes) and custom challenges, which moto lacks. Checked against pycognito (SignInStandInTests).
public final class SignInStandIn: Sendable {
    public enum DeviceTracking: String, Sendable {
        /// Every confirmed device is remembered.
        case always
        /// The user chooses (UpdateDeviceStatus).
        case userOptIn = "user_opt_in"
    }

    /// One code the stand-in "sent".
    public struct SentCode: Sendable, Equatable {
        public let username: String
        public let medium: String
        public let code: String
    }

    private let server: ScriptServer
    /// Point the user-pool client's endpoint here.
    public var endpoint: String { server.baseURL + "/" }

    private init(server: ScriptServer) {
        self.server = server
    }

    public static func start(moto: MotoServer, clientId: String, deviceTracking: DeviceTracking = .always) async throws
        -> SignInStandIn
    {
        let server = try await ScriptServer.start(
            script: "sign_in_stand_in.py",
            arguments: [
                "--upstream", moto.baseURL, "--client-id", clientId, "--device-tracking", deviceTracking.rawValue,
            ])
        return SignInStandIn(server: server)
    }

    /// A user choice-based and custom sign-in know (moto keeps the same user and password).
    public func addUser(_ username: String, password: String, email: String? = nil, phone: String? = nil) async throws {
        var body: [String: Any] = ["username": username, "password": password]
        body["email"] = email
        body["phone"] = phone
        try await control("POST", "users", body)
    }

    /// The rounds of CUSTOM_AUTH: each challenge's public parameters and the answer it takes.
    public func setCustomRounds(_ rounds: [(parameters: [String: String], answer: String)]) async throws {
        try await control(
            "POST", "custom", ["rounds": rounds.map { ["parameters": $0.parameters, "answer": $0.answer] }])
    }

    /// The code the next EMAIL_OTP or SMS_OTP sends, for a test that must know it before it is sent (a terminal's
    /// scripted answers); otherwise codes are random.
    public func setNextCode(_ code: String) async throws {
        try await control("POST", "next-code", ["code": code])
    }

    public func sentCodes() async throws -> [SentCode] {
        let entries = try await control("GET", "codes")["codes"] as? [[String: String]] ?? []
        return entries.map {
            SentCode(username: $0["username"] ?? "", medium: $0["medium"] ?? "", code: $0["code"] ?? "")
        }
    }

    /// "Operation ChallengeName-or-AuthFlow" for every call so far.
    public func requests() async throws -> [String] {
        try await control("GET", "log")["requests"] as? [String] ?? []
    }

    @discardableResult
    private func control(_ method: String, _ name: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        let response = try await LoopbackHTTP.send(
            method: method, url: server.baseURL + "/__standin__/" + name,
            body: try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data())
        guard response.status == 200 else {
            throw TestFixtureError("sign-in stand-in \(name) answered HTTP \(response.status)")
        }
        return response.json
    }
}
