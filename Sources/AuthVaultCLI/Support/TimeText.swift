import FoundationEssentials

/// Times as commands show them: RFC 3339 in UTC, and a rough "in 58 min" / "3 min ago".
enum TimeText {
    static func rfc3339(_ unixSeconds: Double) -> String {
        Date(timeIntervalSince1970: unixSeconds.rounded(.down)).formatted(.iso8601)
    }

    static func relative(_ unixSeconds: Double, now: Double) -> String {
        let delta = unixSeconds - now
        let magnitude = abs(delta)
        let amount: String
        switch magnitude {
        case ..<90: amount = "\(Int(magnitude)) s"
        case ..<(90 * 60): amount = "\(Int((magnitude / 60).rounded())) min"
        case ..<(48 * 3600): amount = "\(Int((magnitude / 3600).rounded())) h"
        default: amount = "\(Int((magnitude / 86_400).rounded())) days"
        }
        return delta >= 0 ? "in \(amount)" : "\(amount) ago"
    }

    static var now: Double { Date().timeIntervalSince1970 }
}
