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
    /// The last offset measured or offered beyond `maximumOffset`, kept to be reported.
    private let refused = Locked<Double?>(nil)

    private struct Learned {
        var offset: Double
        var anchor: ProviderClockAnchor?
    }

    /// The largest offset adopted, either way. A larger one is not a clock's drift but a fault: a broken or hostile
    /// answer (a `Date` in the year 9999, a cache's absurd `Age`), or a machine clock too far off for tokens to be
    /// timed by a guess. It is not adopted (tokens are then timed by this machine's clock) and `refusedOffset`
    /// reports it.
    public static let maximumOffset = 3600.0

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

    /// The provider's time minus this machine's, in seconds (positive: this machine is behind); nil until known,
    /// and nil while beyond `maximumOffset` (an anchored offset that a wall-clock change carried there).
    public var offset: Double? {
        guard let current = currentOffset, Self.isAdoptable(current) else { return nil }
        return current
    }

    /// An offset measured or offered but not adopted, because it was beyond `maximumOffset`; nil once a usable
    /// one is measured.
    public var refusedOffset: Double? {
        if let current = currentOffset, !Self.isAdoptable(current) { return current }
        return refused.withLock { $0 }
    }

    private var currentOffset: Double? {
        guard let learned = learned.withLock({ $0 }) else { return nil }
        return learned.anchor?.offset(wall: local(), boot: boot()) ?? learned.offset
    }

    private static func isAdoptable(_ offset: Double) -> Bool {
        abs(offset) <= maximumOffset
    }

    /// The offset tied to this boot's clock, to keep with the session; nil without a boot clock.
    package var anchor: ProviderClockAnchor? { learned.withLock { $0?.anchor } }

    /// Unix seconds by the provider's clock: the local time when no offset is known, or while it is within
    /// `precision`. Timed by such noise (a `Date` header reads up to a second behind), tokens would be refreshed by
    /// a clock other than the one `localTime` hands their expiry to a tool on: a token file rewritten when a
    /// short-lived token has a fifth of its life left would find it still fresh, and keep it to the last moment.
    public func now() -> Double {
        local() + (significantOffset ?? 0)
    }

    /// Offsets up to this are the measurement's own noise: the `Date` header counts whole seconds, and the answer
    /// took a while to arrive.
    public static let precision = 5.0

    /// A time of the provider's clock (a token's `exp`) read on this machine's clock, for a tool that compares it
    /// with its own; unchanged while the offset is within `precision`.
    public func localTime(ofProviderTime time: Double) -> Double {
        time - (significantOffset ?? 0)
    }

    /// The offset when it is more than the measurement's noise.
    private var significantOffset: Double? {
        guard let offset, abs(offset) > Self.precision else { return nil }
        return offset
    }

    /// Takes the provider's time from an answer that just arrived.
    public func learn(serverTime: Double) {
        let offset = serverTime - local()
        guard Self.isAdoptable(offset) else { return refused.withLock { $0 = offset } }
        let measured = Learned(
            offset: offset,
            anchor: boot().map {
                ProviderClockAnchor(bootID: $0.bootID, providerMinusBoot: serverTime - $0.seconds)
            })
        learned.withLock { $0 = measured }
        refused.withLock { $0 = nil }
    }

    /// Takes an offset learned earlier (the session's record), unless this process has measured one itself. The
    /// anchor, when it is of this boot, wins over the offset: it is still right after the wall clock moved.
    public func adopt(_ offset: Double) {
        adopt(offset, anchor: nil)
    }

    package func adopt(_ offset: Double, anchor: ProviderClockAnchor?) {
        let usable = anchor.flatMap { anchor in boot().flatMap { $0.bootID == anchor.bootID ? anchor : nil } }
        let offered = usable?.offset(wall: local(), boot: boot()) ?? offset
        guard Self.isAdoptable(offered) else {
            return refused.withLock { if $0 == nil { $0 = offered } }
        }
        learned.withLock { current in
            if current == nil { current = Learned(offset: offset, anchor: usable) }
        }
    }

    /// Takes a refused offset reported earlier (the session's record), to report it, unless this process has
    /// already measured or been offered one.
    package func recall(refusedOffset: Double) {
        refused.withLock { if $0 == nil { $0 = refusedOffset } }
    }
}
