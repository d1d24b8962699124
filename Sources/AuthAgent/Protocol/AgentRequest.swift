import AuthStore
import BoundedJSON

/// One request line: `{"v":1,"op":"token","profile":"work","kind":"access"}` and the like.
public enum AgentRequest: Sendable, Equatable {
    /// The protocol's version; a request with another `v` is answered `badRequest` and the connection stays open.
    public static let protocolVersion = 1

    /// A valid token, refreshed ahead of expiry. `kind` defaults to access on the wire.
    case token(profile: String, kind: TokenKind)
    /// AWS credentials from the profile's identity pool, lasting at least the stores' minimum; `guest` for the
    /// pool's unauthenticated identity (false on the wire when absent).
    case awsCredentials(profile: String, guest: Bool)
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
            guard let profile else { throw .badRequest("A token request needs a \"profile\"") }
            switch message["kind"]?.string {
            case nil, "access": return .token(profile: profile, kind: .access)
            case "id": return .token(profile: profile, kind: .id)
            default: throw .badRequest("The token kind must be \"access\" or \"id\"")
            }
        case "awsCredentials":
            guard let profile else { throw .badRequest("An awsCredentials request needs a \"profile\"") }
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
    var line: [UInt8] {
        let message: JSONValue
        let version = JSONValue.number(Double(Self.protocolVersion))
        switch self {
        case .token(let profile, let kind):
            message = .object(
                ("v", version), ("op", .string("token")), ("profile", .string(profile)),
                ("kind", .string(kind == .access ? "access" : "id")))
        case .awsCredentials(let profile, let guest):
            message = .object(
                ("v", version), ("op", .string("awsCredentials")), ("profile", .string(profile)),
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
