import AuthVaultApp
import BoundedJSON

/// `authvault aws-credentials`: the profile's AWS credentials from its identity pool, in the form a tool reads —
/// by default the AWS CLI's and SDKs' `credential_process` JSON.
struct AWSCredentialsCommand: CLICommand {
    static let format = TypedOption<Format>(
        "format",
        help:
            "process: credential_process JSON; json: with the identity and profile; env: export lines for eval; ini: a credentials file section.",
        default: .process)
    static let guest = OptionSpec.flag(
        "guest",
        help: "The identity pool's guest credentials (a pool that allows unauthenticated identities; no sign-in).")
    static let name = "aws-credentials"
    static let spec = CommandSpec(
        name: name,
        abstract: "Print AWS credentials from the profile's identity pool (configure --identity-pool-id).",
        discussion: """
            In ~/.aws/config: 'credential_process = authvault --profile NAME aws-credentials'. The credentials are kept in
            the vault and handed out with at least 15 minutes left; a new set is fetched, once for all processes, when
            they near expiry. Exit status 3 (with the command that signs in) when there is no session, unless
            'configure --helper-sign-in on' lets it sign in on the terminal first; 5 when the identity pool cannot be
            reached.
            """,
        options: [format.spec, guest])

    enum Format: String, OptionChoice { case process, json, env, ini }

    let output: Format
    let asGuest: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        output = try arguments.value(Self.format)
        asGuest = arguments.flag(Self.guest)
    }

    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError) {
        let credentials = try await AWSCredentials.fetch(guest: asGuest, context: context)
        let secretKey = credentials.secretAccessKey.text
        let sessionToken = credentials.sessionToken.text
        let expiration = TimeText.rfc3339(credentials.expiresAt)
        switch output {
        case .process:
            JSONOutput.write(
                .object(
                    ("Version", .number(1)), ("AccessKeyId", .string(credentials.accessKeyId)),
                    ("SecretAccessKey", .string(secretKey)), ("SessionToken", .string(sessionToken)),
                    ("Expiration", .string(expiration))),
                to: context.standardOutput)
        case .json:
            JSONOutput.write(
                .object(
                    ("accessKeyId", .string(credentials.accessKeyId)), ("expiration", .string(expiration)),
                    ("expiresAtUnix", .number(credentials.expiresAt.rounded(.towardZero))),
                    ("identityId", .string(credentials.identityId)), ("profile", .string(context.profileName)),
                    ("secretAccessKey", .string(secretKey)), ("sessionToken", .string(sessionToken))),
                to: context.standardOutput)
        case .env:
            for (name, value) in credentials.environment { context.standardOutput.line("export \(name)='\(value)'") }
        case .ini:
            context.standardOutput.write(
                """
                [\(context.profileName)]
                aws_access_key_id = \(credentials.accessKeyId)
                aws_secret_access_key = \(secretKey)
                aws_session_token = \(sessionToken)

                """)
        }
    }
}

extension AWSCredentials {
    /// The current profile's credentials, agent first. Where only a sign-in helps, the user's may run on their
    /// terminal when they turned helper sign-in on (`HelperSignInTerminal`); never a prompt otherwise.
    nonisolated(nonsending) static func fetch(guest: Bool, context: CommandContext) async throws(CLIError)
        -> AWSCredentials
    {
        let profile = context.profileName
        let isExplicit = context.profileIsExplicit
        do {
            return try await context.application.awsCredentials(profile: profile, guest: guest, isExplicit: isExplicit)
        } catch  where !guest && error.requiresSignIn {
            return try await HelperSignInTerminal.after(error, profile: profile, context: context) {
                () async throws(ApplicationError) in
                try await context.application.awsCredentials(profile: profile, guest: guest, isExplicit: isExplicit)
            }
        } catch {
            throw CLIErrors.from(error, profile: profile)
        }
    }

    /// The variables every AWS SDK reads, in a fixed order. Their values are base64 and letters: no quoting needed
    /// beyond single quotes.
    var environment: [(String, String)] {
        [
            ("AWS_ACCESS_KEY_ID", accessKeyId), ("AWS_SECRET_ACCESS_KEY", secretAccessKey.text),
            ("AWS_SESSION_TOKEN", sessionToken.text), ("AWS_CREDENTIAL_EXPIRATION", TimeText.rfc3339(expiresAt)),
        ]
    }
}

extension SecretBytes {
    /// For output only: the command's purpose is to print them.
    fileprivate var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}
