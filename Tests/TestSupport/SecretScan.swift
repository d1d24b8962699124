/// Which known secrets the output of a tool run outside the CLI's own transcript (git, kubectl, a helper run by
/// a link) shows, told by name, never by value.
public enum SecretScan {
    /// - Parameter secrets: secret value to what it is.
    /// - Returns: the names of the secrets that the standard output or standard error of any of `outputs` holds.
    public static func names(of secrets: [String: String], in outputs: [ProcessOutput]) -> [String] {
        let texts = outputs.flatMap { [$0.stdoutText, $0.stderrText] }
        return secrets.filter { secret, _ in texts.contains { $0.contains(secret) } }.map(\.value).sorted()
    }
}
