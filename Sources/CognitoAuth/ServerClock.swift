import FoundationEssentials
package import SystemPlumbing

/// The identity provider's clock, as this machine sees it: the local clock plus the offset learned from the
/// provider's answers (`ClockLearningTransport`) or adopted from the session's record. Tokens are timed by the
/// provider, so every decision about their expiry, `iat` and `nbf` reads `now()` here: a machine whose clock is
/// minutes off neither refuses a token just issued nor refreshes on every call.
///
/// On the system clock the offset is also tied to the boot clock, which no one sets: when NTP or a person corrects
/// the wall clock later, the offset follows, instead of timing tokens ten minutes off in the other direction.
public final class ServerClock: Sendable {
    /// Unix seconds by this machine's clock.
    public let local: @Sendable () -> Double
    private let boot: @Sendable () -> BootTime?
    private let learned = Locked<Learned?>(nil)

    private struct Learned {
        var offset: Double
        var anchor: ProviderClockAnchor?
    }

    /// The system's clock, with the boot clock beside it.
    public convenience init() {
        self.init(local: { Date().timeIntervalSince1970 }, boot: BootTime.now)
    }

    /// A clock of the caller's (a test's): no boot clock, which would drift against it.
    public convenience init(local: @escaping @Sendable () -> Double) {
        self.init(local: local, boot: { nil })
    }

    package init(local: @escaping @Sendable () -> Double, boot: @escaping @Sendable () -> BootTime?) {
        self.local = local
        self.boot = boot
    }

    /// The provider's time minus this machine's, in seconds (positive: this machine is behind); nil until known.
    public var offset: Double? {
        guard let learned = learned.withLock({ $0 }) else { return nil }
        return learned.anchor?.offset(wall: local(), boot: boot()) ?? learned.offset
    }

    /// The offset tied to this boot's clock, to keep with the session; nil without a boot clock.
    package var anchor: ProviderClockAnchor? { learned.withLock { $0?.anchor } }

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
        let measured = Learned(offset: serverTime - local(), anchor: boot().map {
            ProviderClockAnchor(bootID: $0.bootID, providerMinusBoot: serverTime - $0.seconds)
        })
        learned.withLock { $0 = measured }
    }

    /// Takes an offset learned earlier (the session's record), unless this process has measured one itself. The
    /// anchor, when it is of this boot, wins over the offset: it is still right after the wall clock moved.
    public func adopt(_ offset: Double) {
        adopt(offset, anchor: nil)
    }

    package func adopt(_ offset: Double, anchor: ProviderClockAnchor?) {
        let usable = anchor.flatMap { anchor in boot().flatMap { $0.bootID == anchor.bootID ? anchor : nil } }
        learned.withLock { current in
            if current == nil { current = Learned(offset: offset, anchor: usable) }
        }
    }
}
