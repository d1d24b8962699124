import BoundedJSON

/// JSON laid out as docker writes its config.json (tab-indented), so a file a person reads stays readable.
enum IndentedJSON {
    static func render(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, depth: 0, into: &output)
        output.append(0x0A)
        return output
    }

    private static func write(_ value: JSONValue, depth: Int, into output: inout [UInt8]) {
        let indent = [UInt8](repeating: 0x09, count: depth + 1)
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(contentsOf: "[\n".utf8)
            for (position, element) in elements.enumerated() {
                output.append(contentsOf: indent)
                write(element, depth: depth + 1, into: &output)
                output.append(contentsOf: (position < elements.count - 1 ? ",\n" : "\n").utf8)
            }
            output.append(contentsOf: indent.dropLast())
            output.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            output.append(contentsOf: "{\n".utf8)
            for (position, member) in members.enumerated() {
                output.append(contentsOf: indent)
                JSONValue.string(member.key).write(into: &output)
                output.append(contentsOf: ": ".utf8)
                write(member.value, depth: depth + 1, into: &output)
                output.append(contentsOf: (position < members.count - 1 ? ",\n" : "\n").utf8)
            }
            output.append(contentsOf: indent.dropLast())
            output.append(UInt8(ascii: "}"))
        default:
            value.write(into: &output)
        }
    }
}
