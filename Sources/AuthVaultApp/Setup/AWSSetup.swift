/// `credential_process = /path/to/authvault --profile P aws-credentials` in the AWS config's profile
/// (`$AWS_CONFIG_FILE`, else ~/.aws/config): that one key of that one section replaced, every other line kept.
struct AWSSetup {
    static let key = "credential_process"
    let site: SetupSite
    let awsProfile: String

    /// The AWS config names its default profile `[default]`, every other `[profile NAME]`.
    var section: String { awsProfile == "default" ? "default" : "profile \(awsProfile)" }
    var command: String { ShellWords.line([site.executable, "--profile", site.profile, "aws-credentials"]) }

    func plan(undo: Bool, restoring: [String]?) throws(SetupError) -> SetupPlan {
        try SettingLines.plan(
            .aws, path: site.file("AWS_CONFIG_FILE", orHome: ".aws/config"), key: Self.key, value: command,
            in: section, undo: undo, restoring: restoring)
    }
}
