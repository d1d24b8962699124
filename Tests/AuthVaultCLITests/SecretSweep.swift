import Foundation
import TestSupport
import Testing

extension HeadlessCLI {
    /// Where a remembered secret (password, code, token, client secret, vault passphrase) shows up where it must
    /// not: any run's standard error (or terminal screen), the standard output of any command but `token` (in any
    /// form, `SecretScan.holds`: raw, percent-encoded, base64), every
    /// file under the isolated HOME and XDG directories — the vault's own files included, which must hold them
    /// sealed, not in plaintext, and what `ChildCapture` wrote of a child's command line and environment — and any
    /// core file at all. Each leak is told by the secret's name, never its value.
    func secretLeaks() -> [String] {
        let secrets = knownSecrets
        var leaks: [String] = []
        for run in transcript {
            for (secret, name) in secrets {
                if SecretScan.holds(run.stderr, secret) {
                    leaks.append("\(name) on the standard error of 'authvault \(run.command)'")
                }
                if !run.stdoutMayHoldTokens && SecretScan.holds(run.stdout, secret) {
                    leaks.append("\(name) on the standard output of 'authvault \(run.command)'")
                }
            }
        }
        leaks += SecretScan.places(of: secrets, inFilesUnder: root)
        // AuthVault refuses core dumps (Support/CoreDumps.swift): none may appear where its processes ran.
        for core in SecretScan.coreFiles(under: root, directlyIn: [FileManager.default.currentDirectoryPath]) {
            leaks.append("a core file \(core) (core_pattern \(SecretScan.corePattern))")
        }
        return leaks
    }

    /// `secretLeaks()` is empty; at least the passphrase and the secrets given to the test are known.
    func expectNoSecretLeaks(sourceLocation: SourceLocation = #_sourceLocation) {
        let leaks = secretLeaks()
        #expect(leaks.isEmpty, "secrets where they must not be: \(leaks)", sourceLocation: sourceLocation)
    }
}
