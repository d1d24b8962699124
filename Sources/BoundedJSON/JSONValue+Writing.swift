extension JSONValue {
    /// Compact JSON, members in their order.
    public func write(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): Self.write(number: value, into: &output)
        case .string(let value): Self.write(string: value.utf8, into: &output)
        case .secret(let value): value.withUnsafeBytes { Self.write(string: $0, into: &output) }
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(string: member.key.utf8, into: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers (Unix times, counts) without a fraction; JSON has no infinity or NaN, so those become null.
    private static func write(number value: Double, into output: inout [UInt8]) {
        guard value.isFinite else { return output.append(contentsOf: "null".utf8) }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            output.append(contentsOf: String(Int64(value)).utf8)
        } else {
            output.append(contentsOf: value.description.utf8)
        }
    }

    private static func write(string bytes: some Sequence<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
