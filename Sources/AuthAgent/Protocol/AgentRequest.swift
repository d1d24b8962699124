import AuthStore
import BoundedJSON

/// One request line: `{"v":1,"op":"token","profile":"work","kind":"access"}` and the like.
public enum AgentRequest: Sendable, Equatable {
    /// The protocol's version; a request with another `v` is answered `badRequest` and the connection stays open.
    public static let protocolVersion = 1

    /// A valid token, refreshed ahead of expiry. `kind` defaults to access on the wire. With a `target` (where the
    /// client's tool sends the token), the profile answers only if its helper hosts list the target, and without a
    /// profile the agent chooses by the helper hosts among the profiles the socket serves; with neither, the
    /// agent's current profile or the socket's only one answers (a remote shell without a configuration).
    case token(profile: String?, kind: TokenKind, target: AgentTarget?)
    /// AWS credentials from the profile's identity pool, lasting at least the stores' minimum; `guest` for the
    /// pool's unauthenticated identity (false on the wire when absent). Without a profile, as a token without one.
    case awsCredentials(profile: String?, guest: Bool)
    /// Each profile the agent holds (or only `profile`): state, user, expiries; never a token.
    case status(profile: String?)
    /// Forget the unlocked vault keys and the sessions held in memory; the vaults stay locked until `unlock`.
    case lock
    /// Open the vaults again after `lock` (`authvault vault unlock`), the way the agent opened them at start.
    case unlock
    case version
    case ping

    /// The request on a line (without its newline).
    package static func parse(_ line: some Collection<UInt8>) throws(AgentFailure) -> AgentRequest {
        guard let message = JSONValue.parse(line), case .object = message else {
            throw .badRequest("The request is not a JSON object")
        }
        guard let version = message["v"]?.number else { throw .badRequest("The request has no protocol version \"v\"") }
        guard version == Double(protocolVersion) else {
            throw .badRequest("This agent speaks protocol version \(protocolVersion) only (\"v\":\(protocolVersion))")
        }
        guard let operation = message["op"]?.string else { throw .badRequest("The request has no operation \"op\"") }
        let profile = message["profile"]?.string
        if let profile, profile.isEmpty { throw .badRequest("The profile name is empty") }
        switch operation {
        case "token":
            var target: AgentTarget?
            if let given = message["target"], given != .null { target = try AgentTarget.parse(given) }
            switch message["kind"]?.string {
            case nil, "access": return .token(profile: profile, kind: .access, target: target)
            case "id": return .token(profile: profile, kind: .id, target: target)
            default: throw .badRequest("The token kind must be \"access\" or \"id\"")
            }
        case "awsCredentials":
            switch message["guest"] {
            case nil, .bool(false)?: return .awsCredentials(profile: profile, guest: false)
            case .bool(true)?: return .awsCredentials(profile: profile, guest: true)
            default: throw .badRequest("\"guest\" must be true or false")
            }
        case "status": return .status(profile: profile)
        case "lock": return .lock
        case "unlock": return .unlock
        case "version": return .version
        case "ping": return .ping
        default:
            throw .badRequest("Unknown operation (known: token, awsCredentials, status, lock, unlock, version, ping)")
        }
    }

    /// The request as a line, newline included.
    package var line: [UInt8] {
        let message: JSONValue
        let version = JSONValue.number(Double(Self.protocolVersion))
        switch self {
        case .token(let profile, let kind, let target):
            message = .object(
                ("v", version), ("op", .string("token")), ("profile", profile.map(JSONValue.string)),
                ("kind", .string(kind == .access ? "access" : "id")), ("target", target?.json))
        case .awsCredentials(let profile, let guest):
            message = .object(
                ("v", version), ("op", .string("awsCredentials")), ("profile", profile.map(JSONValue.string)),
                ("guest", .bool(guest)))
        case .status(let profile):
            message = .object(("v", version), ("op", .string("status")), ("profile", profile.map(JSONValue.string)))
        case .lock: message = .object(("v", version), ("op", .string("lock")))
        case .unlock: message = .object(("v", version), ("op", .string("unlock")))
        case .version: message = .object(("v", version), ("op", .string("version")))
        case .ping: message = .object(("v", version), ("op", .string("ping")))
        }
        var bytes: [UInt8] = []
        message.write(into: &bytes)
        bytes.append(0x0A)
        return bytes
    }
}
