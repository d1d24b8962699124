/// What a program AuthVault starts (the browser, the command of `exec`) is given of it.
enum ChildProcess {
    /// Our environment without our own variables: `AUTHVAULT_*` (the vault passphrase above all) are for authvault
    /// alone, and a child that runs authvault again finds the profile and the vault its own way.
    static func environment(from ours: [String: String]) -> [String: String] {
        ours.filter { !$0.key.hasPrefix("AUTHVAULT_") }
    }
}
