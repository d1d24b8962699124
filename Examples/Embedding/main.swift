import AuthVaultApp

#if canImport(Glibc)
    import Glibc
#endif

// A program with a session of its own: the pool and the vault given in code, with no configuration file and no
// environment variable. It signs in (or reopens the stored session, refreshed when due) and prints the access
// token's `sub`, never a token. docs/library.md says how to run it.

enum EmbeddingError: Error, CustomStringConvertible {
    case usage(String)
    case input(String)
    case application(ApplicationError)
    case challenge

    var description: String {
        switch self {
        case .usage(let message): "\(message)\n\(EmbeddingOptions.usage)"
        case .input(let what): "standard input ended before \(what)"
        case .application(.signInRequired):
            "no stored session: sign in with --username, the password first on standard input"
        case .application(let error): "\(error)"
        case .challenge:
            "the pool asks for more than a password (MFA, a new password), which this example does not answer"
        }
    }

    /// As authvault's: 2 usage, 3 sign in, 4 vault, 5 network, 1 anything else.
    var exitStatus: Int32 {
        switch self {
        case .usage, .input, .application(.configuration): 2
        case .application(.signInRequired), .challenge: 3
        case .application(.vaultLocked): 4
        case .application(.network): 5
        case .application: 1
        }
    }
}

/// One line of standard input, as a secret.
func secretLine(_ what: String) throws(EmbeddingError) -> SecretBytes {
    guard let line = readLine(), !line.isEmpty else { throw .input(what) }
    return SecretBytes(utf8: line)
}

func accessTokenSubject() async throws(EmbeddingError) -> String {
    guard let subject = try await signedInSubject() else { throw .challenge }
    return subject
}

/// The access token's `sub`; nil when the pool asks for more than the password.
func signedInSubject() async throws(EmbeddingError) -> String? {
    let options = try EmbeddingOptions(Array(CommandLine.arguments.dropFirst()))
    let password = options["--username"] == nil ? nil : try secretLine("the password")
    let passphrase = try secretLine("the vault passphrase")
    let settings = ProfileSettings.cognito(
        region: options["--region"], userPoolId: options.userPoolId, clientId: options.clientId,
        endpoint: options["--endpoint"], jwksURL: options["--jwks-url"])
    do throws(ApplicationError) {
        let session = try ProfileSession.open(
            settings: settings,
            vault: .encryptedFile(directory: options.vaultDirectory, passphrase: .fixed(passphrase)),
            userAgent: "authvault-embedding-example")
        if let username = options["--username"], let password,
            case .challenge = try await session.signIn(username: username, password: password)
        {
            return nil
        }
        let token = try await session.validAccessToken()
        // The local session is cleared whatever the pool answers; what failed there is said, not hidden.
        let signedOut = options.signsOut ? await session.signOut() : nil
        for failure in signedOut?.remoteFailures ?? [] { warn("signed out here, but \(failure)") }
        return Claims(unverifiedPayloadOf: token)?.subject ?? "unknown"
    } catch {
        throw .application(error)
    }
}

func warn(_ text: String) {
    let message = Array("authvault-embedding-example: \(text)\n".utf8)
    _ = write(2, message, message.count)
}

do {
    print("sub=\(try await accessTokenSubject())")
} catch {
    warn(error.description)
    exit(error.exitStatus)
}
