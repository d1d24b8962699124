import AuthCrypto
import BoundedJSON
import CognitoAuth
import HTTPTransport

/// A token as the agent hands it out. `description` never shows the token.
public struct AgentToken: Sendable, Equatable, CustomStringConvertible {
    public let token: SecretBytes
    /// The token's `exp` on this machine's clock (less the identity provider's clock offset), Unix seconds; nil when
    /// the token carries none.
    public let expiresAt: Double?
    /// Cognito's user name, for protocols that pair a user name with the token.
    public let username: String?
    /// The profile the agent chose, when the request named none.
    public let profile: String?

    public init(token: SecretBytes, expiresAt: Double?, username: String?, profile: String? = nil) {
        self.token = token
        self.expiresAt = expiresAt
        self.username = username
        self.profile = profile
    }

    public var description: String {
        "AgentToken(<redacted>, expiresAt: \(expiresAt.map { "\(Int64($0))" } ?? "-"), username: \(username ?? "-"), profile: \(profile ?? "-"))"
    }
}

/// Who answers on the socket.
public struct AgentVersion: Sendable, Equatable {
    /// The agent's own version (authvault's).
    public let version: String
    public let protocolVersion: Int
    public let pid: Int32
}

/// One reply line. Every reply carries `"v"` and `"ok"`; failures carry `{"code","message"}` under `"error"`, and a
/// sign-in answer to the agent's own user `"signIn"` beside them (`AgentSignIn`).
/// Package-wide for its fuzz target.
package enum AgentReply: Sendable, Equatable {
    case token(AgentToken)
    case awsCredentials(AWSCredentials)
    case status([AgentProfileStatus])
    case version(AgentVersion)
    /// ping, lock and unlock.
    case done
    case failure(AgentFailure)

    /// The reply as a line, newline included. A token or credentials reply holds secrets: callers keep it in `SecretBytes`
    /// or clear it once sent.
    package var line: [UInt8] {
        var fields: [JSONMember] = [JSONMember("v", .number(Double(AgentRequest.protocolVersion)))]
        switch self {
        case .token(let token):
            fields.append(JSONMember("ok", .bool(true)))
            fields.append(JSONMember("token", .secret(token.token)))
            if let expiresAt = token.expiresAt { fields.append(JSONMember("expiresAt", .number(expiresAt))) }
            if let username = token.username { fields.append(JSONMember("username", .string(username))) }
            if let profile = token.profile { fields.append(JSONMember("profile", .string(profile))) }
        case .awsCredentials(let credentials):
            fields.append(JSONMember("ok", .bool(true)))
            fields.append(JSONMember("accessKeyId", .string(credentials.accessKeyId)))
            fields.append(JSONMember("secretAccessKey", .secret(credentials.secretAccessKey)))
            fields.append(JSONMember("sessionToken", .secret(credentials.sessionToken)))
            fields.append(JSONMember("expiresAt", .number(credentials.expiresAt)))
            fields.append(JSONMember("identityId", .string(credentials.identityId)))
        case .status(let profiles):
            fields.append(JSONMember("ok", .bool(true)))
            fields.append(
                JSONMember(
                    "profiles",
                    .array(
                        profiles.map { profile in
                            .object(
                                ("profile", .string(profile.profile)), ("state", .string(profile.state)),
                                ("detail", .string(profile.detail)), ("user", profile.user.map(JSONValue.string)),
                                ("accessTokenExpiresAt", profile.accessTokenExpiresAt.map(JSONValue.number)),
                                ("idTokenExpiresAt", profile.idTokenExpiresAt.map(JSONValue.number)))
                        })))
        case .version(let version):
            fields.append(JSONMember("ok", .bool(true)))
            fields.append(JSONMember("version", .string(version.version)))
            fields.append(JSONMember("protocol", .number(Double(version.protocolVersion))))
            fields.append(JSONMember("pid", .number(Double(version.pid))))
        case .done:
            fields.append(JSONMember("ok", .bool(true)))
        case .failure(let failure):
            fields.append(JSONMember("ok", .bool(false)))
            fields.append(
                JSONMember(
                    "error",
                    .object(
                        ("code", .string(failure.code.rawValue)), ("message", .string(failure.message)),
                        ("signIn", failure.signIn?.json))))
        }
        var bytes: [UInt8] = []
        JSONValue.object(fields).write(into: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    /// The reply to `request` on a line; nil when the line is not a well-formed reply to it. A token's or
    /// credentials' expiry must be a time within `ServerTime.unixSeconds`, as the direct path reads a server's:
    /// beyond it, a `Duration` or date made from it later could trap; a status's times beyond it are dropped.
    package static func parse(_ line: some Collection<UInt8>, answering request: AgentRequest) -> AgentReply? {
        guard let message = JSONValue.parse(line), message["v"]?.number == Double(AgentRequest.protocolVersion),
            let ok = message["ok"]?.bool
        else { return nil }
        guard ok else {
            guard let error = message["error"], let message = error["message"]?.string, let code = error["code"]?.string
            else { return nil }
            // A code this client does not know yet (a newer agent) still reads as a failure; a sign-in it cannot
            // read is left out, as an older agent sends none.
            return .failure(
                AgentFailure(
                    AgentErrorCode(rawValue: code) ?? .internal, message, signIn: AgentSignIn(error["signIn"])))
        }
        switch request {
        case .token:
            let expiresAt = message["expiresAt"]?.number
            guard let token = message["token"]?.string, !token.isEmpty,
                expiresAt.map(ServerTime.unixSeconds.contains) ?? true
            else { return nil }
            return .token(
                AgentToken(
                    token: SecretBytes(utf8: token), expiresAt: expiresAt,
                    username: message["username"]?.string, profile: message["profile"]?.string))
        case .awsCredentials:
            guard let keyId = message["accessKeyId"]?.string, !keyId.isEmpty,
                let secretKey = message["secretAccessKey"]?.string,
                let sessionToken = message["sessionToken"]?.string, let expiresAt = message["expiresAt"]?.number,
                ServerTime.unixSeconds.contains(expiresAt), let identityId = message["identityId"]?.string
            else { return nil }
            return .awsCredentials(
                AWSCredentials(
                    accessKeyId: keyId, secretAccessKey: SecretBytes(utf8: secretKey),
                    sessionToken: SecretBytes(utf8: sessionToken), expiresAt: expiresAt,
                    identityId: identityId))
        case .status:
            guard let entries = message["profiles"]?.array else { return nil }
            var profiles: [AgentProfileStatus] = []
            for entry in entries {
                guard let profile = entry["profile"]?.string, let state = entry["state"]?.string else { return nil }
                profiles.append(
                    AgentProfileStatus(
                        profile: profile, state: state, detail: entry["detail"]?.string ?? state,
                        user: entry["user"]?.string,
                        accessTokenExpiresAt: serverTime(entry["accessTokenExpiresAt"]),
                        idTokenExpiresAt: serverTime(entry["idTokenExpiresAt"])))
            }
            return .status(profiles)
        case .version:
            guard let version = message["version"]?.string,
                let protocolVersion = message["protocol"]?.number.flatMap({ Int(exactly: $0) }),
                let pid = message["pid"]?.number.flatMap({ Int32(exactly: $0) })
            else { return nil }
            return .version(AgentVersion(version: version, protocolVersion: protocolVersion, pid: pid))
        case .lock, .unlock, .ping:
            return .done
        }
    }

    private static func serverTime(_ value: JSONValue?) -> Double? {
        value?.number.flatMap { ServerTime.unixSeconds.contains($0) ? $0 : nil }
    }
}
