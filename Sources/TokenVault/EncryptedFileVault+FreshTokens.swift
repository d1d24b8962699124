import AuthCrypto

/// The fresh tokens this vault handed out, kept in the user keyring beside its data key (`FreshTokenEntry`), so a
/// warm `authvault token` needs neither the key nor libcrypto: one keyring read, one search for the data key, and
/// the first bytes of the record file.
extension EncryptedFileVault {
    public nonisolated func freshTokenEntry(profile: String, kind: String) -> FreshTokenEntry? {
        guard let keyring, !isLocked, ProfileFileName.isValid(profile), (try? directoryExists()) == true,
            case .found(let payload) = keyring.load(freshTokenDescription(profile: profile, kind: kind)),
            let entry = FreshTokenEntry(parsing: payload), entry.binding == bindingText(profile),
            // Searched, not read: `vault lock` (in any process) removes the key, and with it every entry's use.
            keyring.contains(entry.dataKeyDescription),
            // Any write of the record (sign-out, sign-in, a refresh, by any process) changes its tag.
            VaultRecordFile.tag(ofFileAt: recordPath(profile: profile)) == entry.recordTag
        else { return nil }
        return entry
    }

    public nonisolated func keepFreshToken(
        _ entry: FreshTokenEntry, profile: String, kind: String, seconds: Double
    ) -> String? {
        guard let keyring, !isLocked, ProfileFileName.isValid(profile) else { return "the vault keeps no tokens" }
        var entry = entry
        entry.binding = bindingText(profile)
        guard seconds > 0, let payload = entry.encoded() else { return "the token is not one to keep" }
        return keyring.store(
            payload, description: freshTokenDescription(profile: profile, kind: kind), seconds: seconds)
    }

    public func recordLastRead(profile: String) -> RecordAtHand? {
        lastRead[profile]
    }

    /// `record` (nil: none) as `load` or `save` just read or wrote it, kept for `recordLastRead` when the vault can
    /// keep tokens.
    func remember(
        _ record: CredentialRecord?, profile: String, tag: [UInt8], keyDescription: String
    ) -> CredentialRecord? {
        guard keyring != nil else { return record }
        lastRead[profile] = record.map { RecordAtHand(record: $0, tag: tag, dataKeyDescription: keyDescription) }
        return record
    }

    /// Drops the kept tokens of `profile`, or of every profile: their record changed, or the vault was locked.
    nonisolated func forgetFreshTokens(profile: String? = nil) {
        let directory = directory
        keyring?.removeAll { FreshTokenEntry.names($0, directory: directory, profile: profile) }
    }

    /// The profile's binding as kept with its tokens; empty for a profile that has none.
    private nonisolated func bindingText(_ profile: String) -> String {
        bindings[profile].map { $0.userPoolId + "\n" + $0.clientId } ?? ""
    }

    private nonisolated func freshTokenDescription(profile: String, kind: String) -> String {
        FreshTokenEntry.description(directory: directory, profile: profile, kind: kind)
    }
}
