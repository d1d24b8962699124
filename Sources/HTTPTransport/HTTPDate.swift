/// The `Date` header's IMF-fixdate (RFC 9110 section 5.6.7), "Sun, 06 Nov 1994 08:49:37 GMT": the only form a
/// server may send today; the obsolete ones are not read.
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Unix seconds, or nil when `text` is not an IMF-fixdate.
    public static func unixSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            parts[1].count == 2, let day = Int(parts[1]), (1...31).contains(day),
            let monthIndex = months.firstIndex(of: String(parts[2])),
            parts[3].count == 4, let year = Int(parts[3]), year >= 1970
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        return Double(((days * 24 + hour) * 60 + minute) * 60 + second)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension HTTPResponse {
    /// The server's time when this response arrived, from its `Date` header plus any `Age` a cache added (RFC 9111
    /// section 4.2.3); nil without a readable `Date`. The header counts whole seconds: the middle of that second is
    /// the best guess.
    public var serverTime: Double? {
        guard let date = header("Date").flatMap(HTTPDate.unixSeconds) else { return nil }
        let age = header("Age").flatMap { UInt32($0) } ?? 0
        return date + Double(age) + 0.5
    }
}
