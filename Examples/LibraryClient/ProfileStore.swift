import AuthCrypto
import AuthStore
import CognitoAuth
import HTTPTransport
import TokenVault
import TokenVerification

/// The store of a profile that `authvault login` signed in, built from the library's parts the way the CLI builds
/// it: the same vault, and the same per-profile lock file, so a refresh here and one in `authvault token` at the
/// same moment are serialized and neither loses a rotated refresh token.
enum ProfileStore {
    static func open(_ settings: ExampleSettings, transport: CurlTransport) async throws(ExampleError) -> AuthStore {
        let vault: any VaultBackend
        switch settings.vault {
        case .secretService:
            vault = SecretServiceVault(revisions: RecordRevisions(dataDirectory: settings.dataDirectory),
                                       bindings: [settings.profile: .init(userPoolId: settings.userPoolId, clientId: settings.clientId)])
        default:
            let passphrase: PassphraseSource = settings.passphrase.map { .fixed(SecretBytes(utf8: $0)) }
                ?? .unavailable("set AUTHVAULT_VAULT_PASSPHRASE")
            vault = EncryptedFileVault(directory: settings.dataDirectory, passphrase: passphrase,
                                       keyCache: settings.keyCacheSeconds == 0 ? .disabled : .sessionKeyring(timeout: .seconds(settings.keyCacheSeconds)))
        }
        // An app client with a secret: `authvault configure --client-secret-stdin` keeps it with the session.
        let clientSecret: SecretBytes?
        do { clientSecret = try await vault.load(profile: settings.profile)?.clientSecret } catch { throw .vault(error) }

        // Tokens from a refresh are verified (signature by the pool's JWKS, issuer, client) before they are stored.
        let verifier = TokenVerifier(issuer: settings.issuer, clientId: settings.clientId,
                                     keys: JWKSCache(url: settings.jwksURL, transport: transport))
        let cognito: CognitoClient
        do {
            cognito = try CognitoClient(
                configuration: CognitoConfiguration(region: settings.region, userPoolId: settings.userPoolId, clientId: settings.clientId,
                                                    clientSecret: clientSecret, endpoint: settings.endpoint),
                transport: transport, verifier: verifier)
        } catch {
            throw .configuration(error)
        }
        // A process that exits right after its call refreshes before answering, never in the background.
        return AuthStore(profile: settings.profile, vault: vault,
                         lock: ProfileLock(directory: settings.dataDirectory + "/locks", profile: settings.profile),
                         authority: cognito, refreshesInBackground: false)
    }
}
