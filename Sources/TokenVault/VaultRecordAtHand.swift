/// A vault that can hand out a record at once when everything it needs is already at hand: no actor, no thread, no
/// prompt, no wait. A one-shot process (`authvault token`) that finds a fresh token this way ends without starting
/// anything; whenever the answer is nil, `load` is the way, and says why.
public protocol VaultRecordAtHand: VaultBackend {
    /// The profile's record, read once; nil when there is none or it is not at hand (a key still to derive, a lock
    /// held by another process, any problem `load` would report).
    func recordAtHand(profile: String) -> CredentialRecord?
}

extension VaultRecordAtHand {
    public var recordsAtHand: (any VaultRecordAtHand)? { self }
}
