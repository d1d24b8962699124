import Testing
import TokenVault

/// Issue 11 item 2: a vault reports what went wrong; which command or flag fixes it is the application's to say.
@Suite struct VaultErrorTests {
    @Test(arguments: [
        VaultError.locked("default"), .unavailable("no bus"), .timedOut(seconds: 5),
        .passphraseRequired("none given"), .wrongPassphrase, .lockTimedOut(profile: "work", seconds: 5),
    ])
    func namesNoCommandOrFlag(error: VaultError) {
        #expect(!error.description.contains("--"), "\(error.description)")
        #expect(!error.description.contains("'authvault "), "\(error.description)")
    }
}
