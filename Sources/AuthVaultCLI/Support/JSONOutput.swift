import BoundedJSON
import FoundationEssentials

/// JSON on standard output, the same way for every `--json`: sorted keys, unescaped slashes, one value.
enum JSONOutput {
    /// `--json`, one flag on every command that prints JSON: one object with `schemaVersion`, as its schema in docs/ says.
    static func option(_ what: String, schema: String) -> OptionSpec {
        .flag("json", help: "Print \(what) as one JSON object (schema: docs/\(schema).schema.json).")
    }

    /// A value built by hand, compact, members in the order given (sorted by the caller): for the token helpers,
    /// which run many times a minute and must not pay for JSONEncoder's first use.
    static func write(_ value: JSONValue, to output: any TextOutput) {
        var bytes: [UInt8] = []
        value.write(into: &bytes)
        output.line(String(decoding: bytes, as: UTF8.self))
    }

    static func write(_ value: some Encodable, pretty: Bool = true, to output: any TextOutput) throws(CLIError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { throw CLIError("Could not encode the output as JSON.") }
        // JSONEncoder leaves C1 controls, line separators and bidi controls raw: escaped as the one writer escapes them.
        output.line(JSONValue.escapingControls(inJSON: String(decoding: data, as: UTF8.self)))
    }
}
