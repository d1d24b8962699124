import Foundation
import TestSupport
import Testing

/// The shape the architecture promises, checked on the sources themselves so it cannot drift back: one place bumps a
/// record's revision, the CLI stays an adapter (through AuthVaultApp alone, no Cognito client, no lower error, at most 1.5 times the
/// application layer), both examples import AuthVaultApp alone, the profile handle hands out no parts, EINTR
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
        try swiftFiles(under: directory).reduce(0) {
            $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
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

    /// One error vocabulary: the application translates the libraries' errors into its own cases, and the command
    /// line's remedies read those alone; nothing re-exports a lower error for it to name.
    @Test func theCommandLineNamesNoLowerError() throws {
        let lower = [
            "AuthStoreError", "CognitoError", "DeviceGrantError", "OAuthError", "HTTPError", "LoopbackError",
            "VaultError", "TokenError",
        ]
        let words = try Self.swiftFiles(under: "Sources/AuthVaultCLI").flatMap { file in
            file.text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).filter {
                lower.contains(String($0))
            }.map { "\(file.path): \($0)" }
        }
        #expect(words == [], "\(words)")
        let exported = try PackageFiles.text("Sources/AuthVaultApp/ValueTypes.swift")
        #expect(lower.filter { exported.contains(".\($0)") } == [], "ValueTypes.swift re-exports a lower error")
        // Nor does the application's API hand one out, but for the translation itself.
        let published = try Self.swiftFiles(under: "Sources/AuthVaultApp").filter {
            !$0.path.hasSuffix("/ApplicationError+Lower.swift")
        }.flatMap { file in
            file.text.split(separator: "\n").filter { line in
                line.contains("public ") && lower.contains { line.contains($0) }
            }.map { "\(file.path): \($0)" }
        }
        #expect(published == [], "\(published)")
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
        #expect(
            declarations.count == 1 && declarations.allSatisfy { $0.hasPrefix("Sources/BoundedJSON/") },
            "\(declarations)")
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
        let patterns = [
            "message.contains(", "message.hasPrefix(", "description.contains(", "description.hasPrefix(",
            "localizedDescription",
        ]
        let matches = try Self.swiftFiles(under: "Sources").filter { file in
            patterns.contains { file.text.contains($0) }
        }
        #expect(matches.map(\.path) == [])
    }

    /// The modules the files under `directory` import, beyond the toolchain's and the C library's.
    static func imports(under directory: String) throws -> Set<String> {
        let toolchain: Set = ["Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization", "Testing"]
        let names = try swiftFiles(under: directory).flatMap { file in
            file.text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ").map(String.init)
                guard let at = words.firstIndex(of: "import"),
                    words[..<at].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) }),
                    at + 1 < words.count
                else { return nil }
                return words.last?.split(separator: ".").first.map(String.init)
            }
        }
        return Set(names).subtracting(toolchain)
    }

    /// AuthVaultApp is the one door: the command line imports it and plumbing only, and the manifest says so, so a
    /// domain import in the CLI does not even build.
    @Test func theCommandLineReachesTheDomainThroughTheApplicationAlone() throws {
        let allowed: Set = ["AuthVaultApp", "SystemPlumbing", "DebugTrace", "BoundedJSON", "CProcessControl"]
        let imported = try Self.imports(under: "Sources/AuthVaultCLI")
        #expect(imported.contains("AuthVaultApp") && imported.isSubset(of: allowed), "\(imported.subtracting(allowed))")
        let manifest = try PackageFiles.text("Package.swift")
        let line = try #require(manifest.split(separator: "\n").first { $0.contains(".target(name: \"AuthVaultCLI\"") })
        let dependencies = line.split(separator: "[").last?.split(separator: "]").first?
            .split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        #expect(Set(dependencies ?? []) == allowed, "\(line)")
        #expect(manifest.components(separatedBy: ".library(").count == 2, "one library product: AuthVaultApp")
    }

    /// An embedding program needs one product: both examples import AuthVaultApp and nothing of the libraries below.
    @Test func theExamplesImportTheApplicationAlone() throws {
        #expect(try Self.imports(under: "Examples/Embedding") == ["AuthVaultApp"])
        #expect(try Self.imports(under: "Examples/LibraryClient") == ["AuthVaultApp"])
        let manifest = try PackageFiles.text("Package.swift")
        #expect(manifest.contains("dependencies: [\"AuthVaultApp\"], path: \"Examples/Embedding\""))
        #expect(
            manifest.contains(
                "dependencies: [\"AuthVaultApp\"],\n                          path: \"Examples/LibraryClient\""))
    }

    /// The profile handle offers intents; its store, vault, lock and authority are the application's internals.
    @Test func theProfileHandleHandsOutNoParts() throws {
        let handle = try Self.swiftFiles(under: "Sources/AuthVaultApp/Session").filter {
            $0.path.contains("ProfileSession")
        }
        let exposed = handle.flatMap { file in
            file.text.split(separator: "\n").filter { line in
                line.contains("public")
                    && ["store", "vault", "lock", "authority"].contains {
                        line.contains("let \($0):") || line.contains("var \($0):")
                    }
            }
        }
        #expect(!handle.isEmpty && exposed == [], "\(exposed)")
        let internals = try Self.swiftFiles(under: "Sources/AuthVaultApp").flatMap { file in
            file.text.split(separator: "\n").filter {
                $0.contains("public") && ($0.contains("class ProfileAuthority") || $0.contains("struct VaultFactory"))
            }
        }
        #expect(internals == [], "the authority and the vault factory are the application's own")
    }

    @Test func theManifestHasNoMacOSPlatformLine() throws {
        #expect(!(try PackageFiles.text("Package.swift")).contains(".macOS"))
    }
}
