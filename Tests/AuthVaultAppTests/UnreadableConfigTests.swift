import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// A file that cannot be read is named once in the message, whichever reader failed: the wording is chosen by
/// where the error comes from, never by looking into the reason's text.
@Suite struct UnreadableConfigTests {
    @Test func anAmplifyOutputsFileThatCannotBeReadIsNamedOnce() throws {
        let directory = try TemporaryDirectory(prefix: "unreadable-config")
        let path = directory.appending("amplify_outputs.json")
        #expect(throws: ConfigError.unreadable(path: path, reason: "cannot read \(path) as Amplify outputs")) {
            try AmplifyOutputs.read(path)
        }
        let message = "\(ConfigError.unreadable(path: path, reason: "cannot read \(path) as Amplify outputs"))"
        #expect(message.components(separatedBy: path).count == 2, "\(message)")
    }

    @Test func aConfigurationFileOthersMayChangeIsNamedByItsReason() throws {
        let directory = try TemporaryDirectory(prefix: "unreadable-config")
        let path = directory.appending("config.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o666)
        do {
            _ = try ConfigStore(path: path).load()
            Issue.record("a file others may change was loaded")
        } catch {
            guard case .unreadable = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(
                error.description.hasPrefix("Cannot read the configuration file: \(path) has mode 0666"), "\(error)")
        }
    }
}
