import CognitoAuth
import FuzzSupport

/// The OpenID Connect discovery document and the endpoint checks made on it.
@main enum DiscoveryFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        _ = try? OAuthEndpoints(discoveryDocument: input)
    }
}
