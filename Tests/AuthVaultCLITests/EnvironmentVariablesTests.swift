import AuthVaultApp
import Foundation
import Testing

@testable import AuthVaultCLI

/// The process environment read variable by variable says what Foundation's copy of it says, and as a whole is
/// that copy; a given dictionary is read as given.
@Suite struct EnvironmentVariablesTests {
    @Test func theProcessEnvironmentByVariableAndWhole() {
        let foundation = ProcessInfo.processInfo.environment
        #expect(EnvironmentVariables.process.all == foundation)
        for name in ["PATH", "HOME", "AUTHVAULT_NO_SUCH_VARIABLE"] {
            #expect(EnvironmentVariables.process[name] == foundation[name], "\(name)")
        }
    }

    @Test func aGivenDictionaryIsReadAsGiven() {
        let given = EnvironmentVariables(["AUTHVAULT_PROFILE": "work", "PATH": "/nowhere"])
        #expect(given["AUTHVAULT_PROFILE"] == "work")
        #expect(given["PATH"] == "/nowhere")
        #expect(given["HOME"] == nil)
        #expect(given.all == ["AUTHVAULT_PROFILE": "work", "PATH": "/nowhere"])
    }
}
