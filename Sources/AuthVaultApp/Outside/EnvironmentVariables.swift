/// The environment the application sees: a dictionary given by the caller (tests, a library), or the process's
/// own as the command line reads it, variable by variable, and made a dictionary only when a use asks for all of
/// it (exec, the browser). Building that dictionary was the first hashed collection of a token through the agent:
/// 0.3 M of its 3.4 M instructions (callgrind), most of it the run time's first metadata and conformance look-ups.
public struct EnvironmentVariables: Sendable {
    private let lookup: @Sendable (String) -> String?
    private let everything: @Sendable () -> [String: String]

    public init(_ variables: [String: String]) {
        lookup = { variables[$0] }
        everything = { variables }
    }

    /// An environment read through the caller's functions: one variable, and all of them.
    public init(lookup: @escaping @Sendable (String) -> String?, all: @escaping @Sendable () -> [String: String]) {
        self.lookup = lookup
        everything = all
    }

    public subscript(name: String) -> String? { lookup(name) }

    /// Every variable.
    public var all: [String: String] { everything() }

    /// The variable when it is set and not empty.
    public func nonEmpty(_ name: String) -> String? {
        lookup(name).flatMap { $0.isEmpty ? nil : $0 }
    }
}
