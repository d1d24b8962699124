import AuthCrypto

/// A vault that can hand out a record at once when everything it needs is already at hand: no actor, no thread, no
/// prompt, no wait. A one-shot process (`authvault token`) that finds a fresh token this way ends without starting
/// anything; whenever the answer is nil, `load` is the way, and says why.
///
/// It also keeps the fresh tokens it handed out (`FreshTokenEntry`) where the next process finds them without
/// opening the record at all: only while the record file is unchanged and the key that opens it is still cached.
public protocol VaultRecordAtHand: VaultBackend {
    /// The profile's record, read once; nil when there is none or it is not at hand (a key still to derive, a lock
    /// held by another process, any problem `load` would report).
    func recordAtHand(profile: String) -> RecordAtHand?

    /// The token of `kind` kept from `profile`'s record by `keepFreshToken`, while that record file is unchanged and
    /// the vault's key is still cached; nil on any doubt. The caller checks `servableUntil`.
    func freshTokenEntry(profile: String, kind: String) -> FreshTokenEntry?

    /// The record `load` or `save` read or wrote last for `profile` in this process, with its tag: what a token
    /// served after a `load` or a refresh is kept from. Nil when there is none or the vault keeps no tokens.
    func recordLastRead(profile: String) async -> RecordAtHand?

    /// Keeps `entry` for `freshTokenEntry`, for at most `seconds` (and no longer than the data key is cached).
    /// Failing to is not an error (the next process reads the record): the answer says why, for a trace.
    @discardableResult
    func keepFreshToken(_ entry: FreshTokenEntry, profile: String, kind: String, seconds: Double) -> String?
}

extension VaultRecordAtHand {
    public var recordsAtHand: (any VaultRecordAtHand)? { self }
}

/// A record read at hand, with what ties a token taken from it to this very file and key.
public struct RecordAtHand: Sendable {
    public let record: CredentialRecord
    /// The record file's tag when it was read (`VaultRecordFile.tag`); empty when there is none to keep.
    public let tag: [UInt8]
    /// Where the key that opened it is cached.
    public let dataKeyDescription: String

    public init(record: CredentialRecord, tag: [UInt8] = [], dataKeyDescription: String = "") {
        self.record = record
        self.tag = tag
        self.dataKeyDescription = dataKeyDescription
    }

    /// `token` of this record as an entry servable until `servableUntil`; nil when the record has no tag.
    public func freshTokenEntry(
        token: SecretBytes, username: String?, expiresAt: Double, servableUntil: Double
    ) -> FreshTokenEntry? {
        guard !tag.isEmpty, !dataKeyDescription.isEmpty else { return nil }
        return FreshTokenEntry(
            recordTag: tag, dataKeyDescription: dataKeyDescription, servableUntil: servableUntil,
            expiresAt: expiresAt, username: username, token: token)
    }
}
