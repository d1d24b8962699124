import AuthVaultApp

/// `configure --refresh-token-validity`: a duration as Cognito's app client settings give it.
enum RefreshTokenValidity {
    static let range = ResolvedProfile.refreshTokenValidityRange

    /// "30d", "12h", "90m", "3600s" or "3600" in seconds; nil when malformed or outside Cognito's bounds.
    static func seconds(_ text: String) -> Int? {
        let units: [(suffix: Character, seconds: Int)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]
        let unit = units.first { text.last == $0.suffix }
        guard let amount = Int(unit == nil ? Substring(text) : text.dropLast()), amount > 0 else { return nil }
        let (seconds, overflow) = amount.multipliedReportingOverflow(by: unit?.seconds ?? 1)
        return !overflow && range.contains(seconds) ? seconds : nil
    }
}
