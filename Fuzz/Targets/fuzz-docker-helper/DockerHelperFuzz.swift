import FuzzCLISupport
import FuzzSupport

/// The docker credential helper's input: the registry's server URL on standard input (`get`, and `store`, which
/// reads and drops its JSON).
@main enum DockerHelperFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        HelperInvocation.run(["docker-credential", "get"], standardInput: input)
        HelperInvocation.run(["docker-credential", "store"], standardInput: input)
    }
}
