import FuzzCLISupport
import FuzzSupport

/// The git credential helper's input: git's `key=value` lines, then the host matched against the profiles.
@main enum GitCredentialFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        HelperInvocation.run(["git-credential", "get"], standardInput: input)
    }
}
