import Foundation
import Testing
import TestSupport

/// The shape the architecture promises, checked on the sources themselves so it cannot drift back: one place bumps a
/// record's revision, the CLI stays an adapter (no Cognito client, at most 1.5 times the application layer), EINTR
/// is retried in one file, one JSON value type, no second token cache in the agent, no macOS platform line.
@Suite struct PackageShapeTests {
    /// Every `.swift` file under `directory` (relative to the package), with its text.
    static func swiftFiles(under directory: String) throws -> [(path: String, text: String)] {
        let root = PackageFiles.path(directory)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { relative in
            (directory + "/" + relative, try String(contentsOfFile: root + "/" + relative, encoding: .utf8))
        }
    }

    static func lineCount(under directory: String) throws -> Int {
        try swiftFiles(under: directory).reduce(0) { $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
    }

    /// The files under `directory` with a line containing `needle`.
    static func files(under directory: String, containing needle: String) throws -> [String] {
        try swiftFiles(under: directory).filter { $0.text.contains(needle) }.map(\.path)
    }

    @Test func oneFunctionBumpsARecordsRevision() throws {
        let lines = try Self.swiftFiles(under: "Sources").flatMap { file in
            file.text.split(separator: "\n").filter { $0.contains("revision += 1") }.map { "\(file.path): \($0)" }
        }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("Sources/AuthStore/") }, "\(lines)")
    }

    @Test func theCommandLineNamesNoCognitoClient() throws {
        #expect(try Self.files(under: "Sources/AuthVaultCLI", containing: "CognitoClient") == [])
    }

    @Test func theCommandLineIsAtMostOneAndAHalfTimesTheApplication() throws {
        let cli = try Self.lineCount(under: "Sources/AuthVaultCLI")
        let application = try Self.lineCount(under: "Sources/AuthVaultApp")
        #expect(Double(cli) <= 1.5 * Double(application), "CLI \(cli) lines, AuthVaultApp \(application)")
    }

    @Test func eintrIsRetriedInSystemPlumbingOnly() throws {
        let files = try Self.files(under: "Sources", containing: "EINTR")
        #expect(!files.isEmpty && files.allSatisfy { $0.hasPrefix("Sources/SystemPlumbing/") }, "\(files)")
    }

    @Test func boundedJSONHoldsTheOnlyJSONValueType() throws {
        #expect(try Self.files(under: "Sources", containing: "RequestValue") == [])
        let declarations = try Self.swiftFiles(under: "Sources").filter { file in
            file.text.contains("enum JSONValue") || file.text.contains("struct JSONValue")
        }.map(\.path)
        #expect(declarations.count == 1 && declarations.allSatisfy { $0.hasPrefix("Sources/BoundedJSON/") }, "\(declarations)")
    }

    @Test func theAgentKeepsNoTokenCacheOfItsOwn() throws {
        #expect(try Self.files(under: "Sources/AuthAgent", containing: "TokenCache") == [])
    }

    @Test func theStoredRecordIsNotPublic() throws {
        let exposed = try Self.swiftFiles(under: "Sources/AuthStore").flatMap { file in
            file.text.split(separator: "\n").filter { $0.contains("public") && $0.contains("storedRecord") }
        }
        #expect(exposed == [])
    }

    @Test func noErrorIsMatchedByItsMessageText() throws {
        let patterns = ["message.contains(", "message.hasPrefix(", "description.contains(", "description.hasPrefix(",
                        "localizedDescription"]
        let matches = try Self.swiftFiles(under: "Sources").filter { file in patterns.contains { file.text.contains($0) } }
        #expect(matches.map(\.path) == [])
    }

    @Test func theManifestHasNoMacOSPlatformLine() throws {
        #expect(!(try PackageFiles.text("Package.swift")).contains(".macOS"))
    }
}
