import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// Times as the application states them: RFC 3339 in UTC, and a rough "in 58 min" / "3 min ago".
public enum TimeText {
    /// `2026-12-03T09:15:00Z`, the text of Foundation's `.iso8601` style, written by hand: that style's first use
    /// loads a calendar and the time zone, about a millisecond on the token helpers' hot path.
    public static func rfc3339(_ unixSeconds: Double) -> String {
        guard unixSeconds.isFinite, abs(unixSeconds) < 1e11 else {
            return Date(timeIntervalSince1970: unixSeconds.rounded(.down)).formatted(.iso8601)
        }
        var seconds = time_t(unixSeconds.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
            + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "Z"
    }

    public static func relative(_ unixSeconds: Double, now: Double) -> String {
        let delta = unixSeconds - now
        return delta >= 0 ? "in \(span(delta))" : "\(span(delta)) ago"
    }

    /// A span of time, rounded to the unit that suits it: "42 s", "10 min", "3 h", "2 days".
    public static func span(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        switch magnitude {
        case ..<90: return "\(Int(magnitude)) s"
        case ..<(90 * 60): return "\(wholeSeconds(magnitude / 60)) min"
        case ..<(48 * 3600): return "\(wholeSeconds(magnitude / 3600)) h"
        default: return "\(wholeSeconds(magnitude / 86_400)) days"
        }
    }

    /// A number of seconds (or any unit) rounded to a whole one that fits an Int: a record's or a server's number
    /// may be anything, and `Int(_:)` traps on what does not fit (nan is 0).
    public static func wholeSeconds(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value.rounded(), -1e15), 1e15))
    }

    public static var now: Double { Date().timeIntervalSince1970 }
}
