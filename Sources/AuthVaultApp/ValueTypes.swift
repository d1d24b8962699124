// The types a caller of the application names, re-exported one by one so that importing AuthVaultApp is enough:
// an embedding program and the command line depend on this one product, and the libraries that define these
// types stay the application's internals (Package.swift: AuthVaultCLI and the examples depend on AuthVaultApp).

// Values: the secret bytes a token comes in, a token's claims, how a sign-in goes on, a session's states and
// summaries, AWS credentials, an API request and its answer, text a server sent (escaped for a terminal).
@_exported import struct AuthCrypto.SecretBytes
@_exported import enum AuthStore.AuthState
@_exported import struct AuthStore.DevicePolicy
@_exported import struct AuthStore.RecordFacts
@_exported import struct AuthStore.SessionSummary
@_exported import enum AuthStore.SignInProgress
@_exported import struct AuthStore.SignOutResult
@_exported import enum AuthStore.TokenKind
@_exported import struct CognitoAuth.AWSCredentials
@_exported import struct CognitoAuth.AuthChallenge
@_exported import enum CognitoAuth.AuthFlow
@_exported import enum CognitoAuth.ChallengeAnswer
@_exported import struct CognitoAuth.CodeDeliveryDetails
@_exported import enum CognitoAuth.MFAType
@_exported import struct CognitoAuth.OAuthAuthorizationRequest
@_exported import enum CognitoAuth.SignInMethod
@_exported import struct CognitoAuth.SoftwareTokenSecret
@_exported import struct HTTPTransport.HTTPHeader
@_exported import struct HTTPTransport.HTTPProxySettings
@_exported import struct HTTPTransport.HTTPRequest
@_exported import struct HTTPTransport.HTTPResponse
@_exported import enum NetworkHosts.ServerText
// Files written as the application writes its own: 0600, replaced atomically.
@_exported import enum SecureFiles.FilePath
@_exported import enum SecureFiles.FileSystemError
@_exported import enum SecureFiles.SecureFile
@_exported import enum TokenVault.DataKeyCache
@_exported import struct TokenVault.PassphraseSource
@_exported import enum TokenVault.VaultBackendKind
@_exported import struct TokenVerification.Claims
