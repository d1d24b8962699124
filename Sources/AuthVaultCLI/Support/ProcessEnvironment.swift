import AuthVaultApp

#if canImport(Glibc)
    import Glibc
#endif

extension EnvironmentVariables {
    /// The process environment: the command line is the one part of the program that reads it.
    static let process = EnvironmentVariables(
        lookup: { name in getenv(name).map { String(cString: $0) } }, all: processVariables)

    private static func processVariables() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            // Split on the bytes: String's Character view would run grapheme breaking over every variable.
            if let equals = strchr(pointer, Int32(UInt8(ascii: "="))) {
                let name = String(
                    decoding: UnsafeRawBufferPointer(start: pointer, count: equals - pointer), as: UTF8.self)
                variables[name] = String(cString: equals + 1)
            }
            entry += 1
        }
        return variables
    }
}
