/// The bounds within which a time or lifetime a server states (a token's `exp`, `iat` and `nbf`, `expires_in`, an
/// identity pool's `Expiration`) is used. Beyond them a value is a fault or an attack, and a later conversion (to
/// whole seconds, a `Duration`, a date) could trap; nan is within no bound.
public enum ServerTime {
    /// Unix seconds from 1970 to the end of 9999: the years an RFC 3339 date or an HTTP `Date` can write.
    public static let unixSeconds: ClosedRange<Double> = 0...253_402_300_799
    /// A lifetime in seconds (`expires_in`): up to ten years, Cognito's longest refresh-token lifetime.
    public static let lifetime: ClosedRange<Double> = 0...315_360_000
}
