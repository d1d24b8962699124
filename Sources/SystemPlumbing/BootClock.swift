#if canImport(Glibc)
    internal import Glibc
#endif

/// Time since this machine booted (CLOCK_BOOTTIME, counting suspend too), with the boot's id. No one sets this
/// clock: the difference of two readings of one boot is time that truly passed, whatever NTP or a person did to the
/// wall clock in between.
package struct BootTime: Sendable, Equatable {
    package let bootID: String
    package let seconds: Double

    package init(bootID: String, seconds: Double) {
        self.bootID = bootID
        self.seconds = seconds
    }

    /// Now, or nil where the kernel does not say which boot this is.
    package static func now() -> BootTime? {
        guard let bootID = currentBootID else { return nil }
        var time = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &time) == 0 else { return nil }
        return BootTime(bootID: bootID, seconds: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    /// Read once: a process never outlives its boot.
    private static let currentBootID: String? = {
        guard let file = fopen("/proc/sys/kernel/random/boot_id", "re") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let id = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .filter { !$0.isWhitespace }
        return id.isEmpty ? nil : id
    }()
}

/// The identity provider's clock tied to the boot clock: within the boot `bootID`, the provider's Unix time is
/// `providerMinusBoot` plus the seconds since boot. Kept with a session, so an offset measured while the wall clock
/// was wrong stays right after the clock is corrected.
package struct ProviderClockAnchor: Codable, Sendable, Equatable {
    package let bootID: String
    package let providerMinusBoot: Double

    package init(bootID: String, providerMinusBoot: Double) {
        self.bootID = bootID
        self.providerMinusBoot = providerMinusBoot
    }

    /// The provider's time minus the wall clock's `wall`, when `boot` is a reading of the same boot.
    package func offset(wall: Double, boot: BootTime?) -> Double? {
        guard let boot, boot.bootID == bootID else { return nil }
        return providerMinusBoot + boot.seconds - wall
    }
}
