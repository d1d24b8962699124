import AuthCrypto
import FoundationEssentials
import HTTPTransport

/// The signing keys of one issuer, fetched from its JWKS URL and kept in memory.
///
/// The set is fetched on first use and again only when a token names a `kid` the cache does not know (the issuer
/// rotated its keys), at most once per `minimumRefetchInterval`, so a stream of forged `kid`s cannot turn into a
/// stream of requests. Concurrent callers share one fetch.
public actor JWKSCache {
    public let url: String
    private let transport: any HTTPTransport
    private let fetchTimeout: Duration
    private let minimumRefetchInterval: Double
    private let now: @Sendable () -> Double

    private var keys: [String: JSONWebKey] = [:]
    private var lastFetchStarted: Double?
    private var lastFailure: TokenError?
    private var inFlight: Task<Result<JSONWebKeySet, TokenError>, Never>?

    /// - Parameter now: monotonic seconds; injectable so tests can step over the refetch interval.
    public init(
        url: String,
        transport: any HTTPTransport,
        fetchTimeout: Duration = .seconds(5),
        minimumRefetchInterval: Duration = .seconds(10),
        now: @escaping @Sendable () -> Double = JWKSCache.monotonicSeconds
    ) {
        self.url = url
        self.transport = transport
        self.fetchTimeout = fetchTimeout
        self.minimumRefetchInterval =
            Double(minimumRefetchInterval.components.seconds)
            + Double(minimumRefetchInterval.components.attoseconds) / 1e18
        self.now = now
    }

    public func key(for kid: String) async throws(TokenError) -> JSONWebKey {
        if let key = keys[kid] { return key }
        await fetchUnlessThrottled()
        guard let key = keys[kid] else {
            if keys.isEmpty, let lastFailure { throw lastFailure }
            throw .unknownKey(kid: kid)
        }
        return key
    }

    /// The set's one key, for a token whose header names none: OpenID Connect Core section 10.1 allows that only
    /// while the set holds a single key.
    public func soleKey() async throws(TokenError) -> JSONWebKey {
        if keys.isEmpty { await fetchUnlessThrottled() }
        if keys.isEmpty, let lastFailure { throw lastFailure }
        guard keys.count == 1, let key = keys.values.first else {
            throw .malformed("the header has no 'kid' and the key set holds \(keys.count) keys")
        }
        return key
    }

    private func fetchUnlessThrottled() async {
        let throttled = lastFetchStarted.map { now() - $0 < minimumRefetchInterval } ?? false
        if inFlight == nil && !throttled { startFetch() }
        if let task = inFlight {
            apply(await task.value)
        }
    }

    private func startFetch() {
        lastFetchStarted = now()
        var request = HTTPRequest(
            method: "GET", url: url, headers: [HTTPHeader(name: "Accept", value: "application/json")],
            timeout: fetchTimeout)
        request.operation = "the JWKS signing keys"
        let transport = self.transport
        inFlight = Task { () -> Result<JSONWebKeySet, TokenError> in
            do throws(HTTPError) {
                let response = try await transport.send(request)
                guard response.status == 200 else {
                    return .failure(.keySetUnavailable("HTTP \(response.status) from \(request.url)"))
                }
                return Result { () throws(TokenError) in try JSONWebKeySet(json: response.body) }
            } catch {
                return .failure(.keySetUnavailable(error.description))
            }
        }
    }

    /// Every caller that waited on the fetch applies its outcome; applying it twice changes nothing.
    private func apply(_ result: Result<JSONWebKeySet, TokenError>) {
        inFlight = nil
        switch result {
        case .success(let set):
            keys = set.keys
            lastFailure = nil
        case .failure(let error):
            lastFailure = error
        }
    }

    public static let monotonicSeconds: @Sendable () -> Double = {
        let elapsed = ContinuousClock.now - processStart
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

private let processStart = ContinuousClock.now
