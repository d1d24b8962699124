import FoundationEssentials
import Synchronization

/// The identity provider's clock, as this machine sees it: the local clock plus the offset learned from the
/// provider's answers (`ClockLearningTransport`) or adopted from the session's record. Tokens are timed by the
/// provider, so every decision about their expiry, `iat` and `nbf` reads `now()` here: a machine whose clock is
/// minutes off neither refuses a token just issued nor refreshes on every call.
public final class ServerClock: Sendable {
    /// Unix seconds by this machine's clock.
    public let local: @Sendable () -> Double
    private let learned = Mutex<Double?>(nil)

    public init(local: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.local = local
    }

    /// The provider's time minus this machine's, in seconds (positive: this machine is behind); nil until known.
    public var offset: Double? { learned.withLock { $0 } }

    /// Unix seconds by the provider's clock: the local time when no offset is known.
    public func now() -> Double {
        local() + (offset ?? 0)
    }

    /// Offsets up to this are the measurement's own noise: the `Date` header counts whole seconds, and the answer
    /// took a while to arrive.
    public static let precision = 5.0

    /// A time of the provider's clock (a token's `exp`) read on this machine's clock, for a tool that compares it
    /// with its own; unchanged while the offset is within `precision`.
    public func localTime(ofProviderTime time: Double) -> Double {
        guard let offset, abs(offset) > Self.precision else { return time }
        return time - offset
    }

    /// Takes the provider's time from an answer that just arrived.
    public func learn(serverTime: Double) {
        let measured = serverTime - local()
        learned.withLock { $0 = measured }
    }

    /// Takes an offset learned earlier (the session's record), unless this process has measured one itself.
    public func adopt(_ offset: Double) {
        learned.withLock { current in
            if current == nil { current = offset }
        }
    }
}
