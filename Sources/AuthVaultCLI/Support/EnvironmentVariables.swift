#if canImport(Glibc)
import Glibc
#endif

/// The environment a command sees: a dictionary given by the caller (tests), or the process's own, read variable by
/// variable and made a dictionary only when a command asks for all of it (exec, the browser). Building that
/// dictionary was the first hashed collection of a token through the agent: 0.3 M of its 3.4 M instructions
/// (callgrind), most of it the run time's first metadata and conformance look-ups.
public struct EnvironmentVariables: Sendable {
    private let given: [String: String]?

    /// The process environment.
    public static let process = EnvironmentVariables(given: nil)

    public init(_ variables: [String: String]) {
        given = variables
    }

    private init(given: [String: String]?) {
        self.given = given
    }

    public subscript(name: String) -> String? {
        if let given { return given[name] }
        return getenv(name).map { String(cString: $0) }
    }

    /// Every variable.
    public var all: [String: String] {
        given ?? Self.processVariables()
    }

    private static func processVariables() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            // Split on the bytes: String's Character view would run grapheme breaking over every variable.
            if let equals = strchr(pointer, Int32(UInt8(ascii: "="))) {
                let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: equals - pointer), as: UTF8.self)
                variables[name] = String(cString: equals + 1)
            }
            entry += 1
        }
        return variables
    }
}
