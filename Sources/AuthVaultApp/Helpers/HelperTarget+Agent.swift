import AuthAgent
import NetworkHosts

/// A helper's target on the agent's wire, both ways: a client without a configuration sends it, and the agent
/// turns it back into the `HelperTarget` its helper-host rules take, git's path and user included.
extension HelperTarget {
    /// As the agent's protocol carries it; nil for a target the protocol cannot (a host, path or user past its
    /// bounds).
    var agentTarget: AgentTarget? {
        AgentTarget(
            scheme: scheme, host: endpoint.host.description, port: endpoint.port, path: path, username: username)
    }

    /// What a client sent; nil when its host is no host name or address (or carries a port of its own).
    init?(_ target: AgentTarget) {
        guard let parsed = HostPort(target.host), parsed.port == nil else { return nil }
        self.init(
            scheme: target.scheme, endpoint: HostPort(host: parsed.host, port: target.port), path: target.path,
            username: target.username)
    }
}
