import Testing

/// Every suite of this target, one after another: the load tests keep both cores busy, and the robustness tests
/// time the replies other clients get, so they must not overlap.
@Suite(.serialized) enum AgentSuites {}
