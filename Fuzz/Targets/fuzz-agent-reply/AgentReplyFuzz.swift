import AuthAgent
import FuzzSupport

/// The agent client's reply reader: one line read as the answer to each kind of request. A reply read is written back
/// and must read the same, and an expiry it holds is a time a `Duration` can be made from (the client sleeps on it).
@main enum AgentReplyFuzz: FuzzTarget {
    static let requests: [AgentRequest] = [
        .token(profile: nil, kind: .access, target: nil), .awsCredentials(profile: nil, guest: false),
        .status(profile: nil), .version, .ping,
    ]

    static func test(_ input: [UInt8]) {
        for request in requests {
            guard let reply = AgentReply.parse(input, answering: request) else { continue }
            let written = reply.line.dropLast()
            guard AgentReply.parse(written, answering: request) == reply else {
                fatalError("a reply does not read back as written: \(String(decoding: written, as: UTF8.self))")
            }
            switch reply {
            case .token(let token): _ = token.expiresAt.map { Duration.seconds($0) }
            case .awsCredentials(let credentials): _ = Duration.seconds(credentials.expiresAt)
            default: break
            }
        }
    }
}
