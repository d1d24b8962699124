import Foundation
import TestSupport

/// A headless machine signed in to its own pool, its profile's Cognito calls going through a fault proxy in front
/// of moto (the JWKS straight from moto), so a test can break refreshes and count them.
struct SignedInProfile: Sendable {
    static let username = "erin"
    static let password = "Refresh-Path-7!"

    let pool: CognitoPool
    let proxy: FaultProxy
    let cli: HeadlessCLI

    /// - Parameter setup: `.gnomeKeyring` keeps the session in the Secret Service (`configure` picks it).
    static func make(withSecret: Bool = false, setup: SecretServiceSession.Setup = .noBus) async throws
        -> SignedInProfile
    {
        let pool = try await CognitoPool.make(withSecret: withSecret)
        try await pool.createUser(username, password: password)
        let proxy = try await FaultProxy.start(upstream: pool.moto.baseURL)
        let cli = try HeadlessCLI(setup)
        try await cli.configure(pool, endpoint: proxy.endpoint)
        let login = try await cli.login(username, lines: [password])
        guard login.status == 0 else { throw TestFixtureError("login exited \(login.status): \(login.stderrText)") }
        return SignedInProfile(pool: pool, proxy: proxy, cli: cli)
    }

    /// The operations the proxy saw after the first `count`.
    func operations(after count: Int) async throws -> [String] {
        Array(try await proxy.records().dropFirst(count).map(\.operation))
    }
}
