import NetworkHosts

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

    /// A JSON string of UTF-8 `bytes` (never copied whole: a secret's bytes pass through here). Besides what JSON
    /// requires, every character a terminal or a log would act on or reorder (`ServerText.mustBeEscaped`: C1
    /// controls, DEL, line and paragraph separators, bidi controls) is written as `\uXXXX`, so what `--json`
    /// shows is what text output shows, and it decodes to the same string. Malformed UTF-8 is written as U+FFFD.
    private static func write(string bytes: some Sequence<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): write(scalar: scalar, into: &output)
            case .error: write(scalar: "\u{FFFD}", into: &output)
            case .emptyInput: break decoding
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func write(scalar: Unicode.Scalar, into output: inout [UInt8]) {
        switch scalar {
        case "\"": output.append(contentsOf: #"\""#.utf8)
        case "\\": output.append(contentsOf: #"\\"#.utf8)
        case "\n": output.append(contentsOf: #"\n"#.utf8)
        case "\r": output.append(contentsOf: #"\r"#.utf8)
        case "\t": output.append(contentsOf: #"\t"#.utf8)
        case _ where ServerText.mustBeEscaped(scalar): writeEscape(scalar, into: &output)
        default: output.append(contentsOf: scalar.utf8)
        }
    }

    /// `\uXXXX` for each UTF-16 unit of `scalar`.
    private static func writeEscape(_ scalar: Unicode.Scalar, into output: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for unit in scalar.utf16 {
            output.append(contentsOf: #"\u"#.utf8)
            for shift in stride(from: 12, through: 0, by: -4) { output.append(hex[Int(unit >> UInt16(shift) & 0x0F)]) }
        }
    }

    /// JSON text another encoder wrote (JSONEncoder's pretty output) with the same characters escaped as this
    /// writer escapes. JSON holds such characters only inside strings (its whitespace, which a pretty printer puts
    /// between tokens, is space, tab, CR and LF, and an encoder escapes those three inside strings), so writing each
    /// other one as `\uXXXX` keeps the text valid and every string the same.
    public static func escapingControls(inJSON text: String) -> String {
        let escaped = { (scalar: Unicode.Scalar) in
            ServerText.mustBeEscaped(scalar) && !["\t", "\r", "\n"].contains(scalar)
        }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var output: [UInt8] = []
        for scalar in text.unicodeScalars {
            if escaped(scalar) { writeEscape(scalar, into: &output) } else { output.append(contentsOf: scalar.utf8) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
