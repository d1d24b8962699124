/// The TIMESTAMP of an SRP password claim: `EEE MMM d HH:mm:ss 'UTC' yyyy` in English, the day not zero-padded
/// ("Tue Dec 2 19:36:07 UTC 2026"). Computed from the Unix time by hand: a DateFormatter would pull in ICU.
enum CognitoTimestamp {
    static func format(unixSeconds: Int64) -> String {
        let (days, secondsOfDay) = floorDivision(unixSeconds, 86_400)
        // 1970-01-01 was a Thursday (index 4, counting from Sunday).
        let weekday = Int(floorDivision(days + 4, 7).remainder)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let hour = secondsOfDay / 3600
        let minute = secondsOfDay / 60 % 60
        let second = secondsOfDay % 60
        return
            "\(weekdays[weekday]) \(months[month - 1]) \(day) \(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second)) UTC \(year)"
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
