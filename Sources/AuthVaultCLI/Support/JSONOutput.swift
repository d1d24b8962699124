import FoundationEssentials

/// JSON on standard output, the same way for every `--json`: sorted keys, unescaped slashes, one value.
enum JSONOutput {
    static func write(_ value: some Encodable, pretty: Bool = true, to output: any TextOutput) throws(CLIError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { throw CLIError("Could not encode the output as JSON.") }
        output.line(String(decoding: data, as: UTF8.self))
    }
}
