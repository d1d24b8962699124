import AuthAgent
import FuzzSupport

/// The agent's request reader: one line of the agent protocol (a token's target included), its bounded JSON
/// parser underneath. A request read is written back and must read the same: what a client sends is what the agent
/// reads.
@main enum AgentRequestFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        guard let request = try? AgentRequest.parse(input) else { return }
        let written = request.line.dropLast()
        guard (try? AgentRequest.parse(written)) == request else {
            fatalError("a request does not read back as written: \(String(decoding: written, as: UTF8.self))")
        }
    }
}
