import AuthAgent
import FuzzSupport

/// The agent's request reader: one line of the agent protocol, its bounded JSON parser underneath.
@main enum AgentRequestFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        _ = try? AgentRequest.parse(input)
    }
}
