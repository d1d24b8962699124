import Foundation
import Testing

extension HeadlessCLI {
    /// Where a remembered secret (password, code, token, client secret, vault passphrase) shows up where it must
    /// not: any run's standard error (or terminal screen), the standard output of any command but `token`, and
    /// every file under the isolated HOME and XDG directories — the vault's own files included, which must hold
    /// them sealed, not in plaintext. Each leak is told by the secret's name, never its value.
    func secretLeaks() -> [String] {
        let secrets = knownSecrets
        var leaks: [String] = []
        for run in transcript {
            for (secret, name) in secrets {
                if run.stderr.contains(secret) { leaks.append("\(name) on the standard error of 'authvault \(run.command)'") }
                if !run.stdoutMayHoldTokens && run.stdout.contains(secret) {
                    leaks.append("\(name) on the standard output of 'authvault \(run.command)'")
                }
            }
        }
        for path in Self.regularFiles(under: root) {
            guard let contents = FileManager.default.contents(atPath: path) else { continue }
            let place = String(path.dropFirst(root.count))
            for (secret, name) in secrets where contents.range(of: Data(secret.utf8)) != nil {
                leaks.append("\(name) in \(place)")
            }
            // A token kept in pieces still shows its claims segment.
            for (secret, name) in secrets {
                let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
                if parts.count == 3, parts[1].count > 16, contents.range(of: Data(parts[1].utf8)) != nil {
                    leaks.append("the claims of \(name) in \(place)")
                }
            }
        }
        return leaks
    }

    /// `secretLeaks()` is empty; at least the passphrase and the secrets given to the test are known.
    func expectNoSecretLeaks(sourceLocation: SourceLocation = #_sourceLocation) {
        let leaks = secretLeaks()
        #expect(leaks.isEmpty, "secrets where they must not be: \(leaks)", sourceLocation: sourceLocation)
    }

    private static func regularFiles(under directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(path) }
        }
        return files
    }
}

/// Whether two secret values are present and equal, computed apart from `#expect` so that a failed expectation
/// never prints them (the macro shows the operands of a comparison written inside it).
func sameSecret(_ first: String?, _ second: String?) -> Bool {
    first != nil && first == second
}
