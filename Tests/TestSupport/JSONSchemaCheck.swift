import Foundation

/// A command's JSON output checked against its schema in docs/ by an implementation of JSON Schema (draft 2020-12)
/// that nobody here wrote: Python's jsonschema, run by Tests/TestSupport/Scripts/validate_json_schema.py.
public enum JSONSchemaCheck {
    /// The violations of `document` against `schema` (a file name in docs/, e.g. `token.schema.json`), each by its
    /// place and the keyword it breaks, never by the value there: `token --json` holds a token.
    public static func violations(of document: Data, against schema: String) async throws -> [String] {
        let script = SecretServiceSession.scriptsDirectory + "/validate_json_schema.py"
        let output = try await BoundedProcess.run(
            PeerPython.path, [script, PackageFiles.path("docs/" + schema)], stdin: document, timeout: 30)
        guard output.status == 0 || output.status == 1 else {
            // A traceback's last line names the exception (a document that is no JSON), not the document.
            let reason =
                output.status == 2
                ? output.stdoutText : output.stderrText.split(separator: "\n").last.map(String.init) ?? ""
            throw TestFixtureError("validate_json_schema.py \(schema) exited \(output.status): \(reason)")
        }
        return output.stdoutText.split(separator: "\n").map(String.init)
    }
}
