import AuthCrypto
internal import BoundedJSON
import FoundationEssentials
internal import SystemPlumbing

/// The record's wire form inside a vault: JSON with the secrets as strings. Only vault backends call this, and
/// they encrypt the result (file) or hand it to the Secret Service.
extension CredentialRecord {
    /// Internal for `RecordReadingTests`, which compare its two readings.
    struct Stored: Codable, Equatable {
        var formatVersion: Int
        var revision: UInt64
        var profile: String
        var accessToken: String?
        var idToken: String?
        var refreshToken: String?
        var accessTokenExpiresAt: Double?
        var idTokenExpiresAt: Double?
        var identity: UserIdentity?
        var origin: SessionOrigin?
        var signedInAt: Double?
        var lastRefreshAt: Double?
        var clockOffset: Double?
        var clockAnchor: ProviderClockAnchor?
        var refusedClockOffset: Double?
        var sessionEndedReason: String?
        var clientSecret: String?
        var identityId: String?
        var identityPoolId: String?
        var aws: StoredAWSCredentials?
        var device: StoredDevice?
        var binding: ProfileBinding?
        var pendingRevocations: [StoredPendingRevocation]?
    }

    struct StoredPendingRevocation: Codable, Equatable {
        var refreshToken: String
        var origin: SessionOrigin
        var signedInAt: Double?
        var lastRefreshAt: Double?
        var lastTriedAt: Double
        var lastFailure: String
    }

    struct StoredDevice: Codable, Equatable {
        var key: String
        var groupKey: String
        var password: String
        var name: String
    }

    struct StoredAWSCredentials: Codable, Equatable {
        var accessKeyId: String
        var secretAccessKey: String
        var sessionToken: String
        var expiresAt: Double
        var identityPoolId: String?
        var roleARN: String?
    }

    public func serialized() -> SecretBytes {
        let stored = Stored(
            formatVersion: formatVersion, revision: revision, profile: profile,
            accessToken: accessToken.map(Self.text), idToken: idToken.map(Self.text),
            refreshToken: refreshToken.map(Self.text), accessTokenExpiresAt: accessTokenExpiresAt,
            idTokenExpiresAt: idTokenExpiresAt, identity: identity, origin: origin, signedInAt: signedInAt,
            lastRefreshAt: lastRefreshAt, clockOffset: clockOffset, clockAnchor: clockAnchor,
            refusedClockOffset: refusedClockOffset, sessionEndedReason: sessionEndedReason,
            clientSecret: clientSecret.map(Self.text),
            identityId: identityId, identityPoolId: identityPoolId,
            aws: awsCredentials.map {
                StoredAWSCredentials(
                    accessKeyId: $0.accessKeyId, secretAccessKey: Self.text($0.secretAccessKey),
                    sessionToken: Self.text($0.sessionToken), expiresAt: $0.expiresAt,
                    identityPoolId: $0.scope?.identityPoolId, roleARN: $0.scope?.roleARN)
            },
            device: device.map {
                StoredDevice(key: $0.key, groupKey: $0.groupKey, password: Self.text($0.password), name: $0.name)
            },
            binding: binding,
            pendingRevocations: pendingRevocations.isEmpty
                ? nil
                : pendingRevocations.map {
                    StoredPendingRevocation(
                        refreshToken: Self.text($0.refreshToken), origin: $0.origin, signedInAt: $0.signedInAt,
                        lastRefreshAt: $0.lastRefreshAt, lastTriedAt: $0.lastTriedAt, lastFailure: $0.lastFailure)
                })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain strings, numbers and optionals cannot fail.
        var data = try! encoder.encode(stored)
        defer { data.resetBytes(in: 0..<data.count) }
        return SecretBytes(data)
    }

    public init(serialized bytes: SecretBytes) throws(VaultError) {
        let stored: Stored
        do {
            // JSONDecoder only for what the cheaper reading refuses (see JSONFields).
            stored = try bytes.withUnsafeBytes { buffer in
                try Stored.read(buffer) ?? JSONDecoder().decode(Stored.self, from: Data(buffer))
            }
        } catch {
            throw .corrupted(location: "record", reason: "the decrypted record is not valid")
        }
        guard stored.formatVersion >= 1 && stored.formatVersion <= Self.currentFormatVersion else {
            throw .unsupportedVersion(location: "record", version: stored.formatVersion)
        }
        self.init(profile: stored.profile)
        formatVersion = Self.currentFormatVersion
        revision = stored.revision
        accessToken = stored.accessToken.map { SecretBytes(utf8: $0) }
        idToken = stored.idToken.map { SecretBytes(utf8: $0) }
        refreshToken = stored.refreshToken.map { SecretBytes(utf8: $0) }
        accessTokenExpiresAt = stored.accessTokenExpiresAt
        idTokenExpiresAt = stored.idTokenExpiresAt
        identity = stored.identity
        origin = stored.origin
        signedInAt = stored.signedInAt
        lastRefreshAt = stored.lastRefreshAt
        clockOffset = stored.clockOffset
        clockAnchor = stored.clockAnchor
        refusedClockOffset = stored.refusedClockOffset
        sessionEndedReason = stored.sessionEndedReason
        clientSecret = stored.clientSecret.map { SecretBytes(utf8: $0) }
        identityId = stored.identityId
        identityPoolId = stored.identityPoolId
        awsCredentials = stored.aws.map { aws in
            AWSCredentialEntry(
                accessKeyId: aws.accessKeyId, secretAccessKey: SecretBytes(utf8: aws.secretAccessKey),
                sessionToken: SecretBytes(utf8: aws.sessionToken), expiresAt: aws.expiresAt,
                scope: aws.identityPoolId.map { AWSCredentialScope(identityPoolId: $0, roleARN: aws.roleARN) })
        }
        device = stored.device.map {
            DeviceEntry(key: $0.key, groupKey: $0.groupKey, password: SecretBytes(utf8: $0.password), name: $0.name)
        }
        binding = stored.binding
        pendingRevocations = (stored.pendingRevocations ?? []).map {
            PendingRevocation(
                refreshToken: SecretBytes(utf8: $0.refreshToken), origin: $0.origin, signedInAt: $0.signedInAt,
                lastRefreshAt: $0.lastRefreshAt, lastTriedAt: $0.lastTriedAt, lastFailure: $0.lastFailure)
        }
    }

    private static func text(_ secret: SecretBytes) -> String {
        secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}

/// The record read without Codable, on every warm `authvault token` (see `JSONFields`): the same members as the
/// `Codable` conformances, each read as they read it. `RecordReadingTests` checks that the two agree.
extension CredentialRecord.Stored {
    static func read(_ bytes: UnsafeRawBufferPointer) -> Self? {
        guard let root = JSONValue.parse(bytes), let fields = try? JSONFields(root) else { return nil }
        return try? Self(fields: fields)
    }

    init(fields: JSONFields) throws(JSONFields.Refused) {
        formatVersion = try JSONFields.required(fields.int("formatVersion"))
        revision = try JSONFields.required(fields.uint64("revision"))
        profile = try JSONFields.required(fields.string("profile"))
        accessToken = try fields.string("accessToken")
        idToken = try fields.string("idToken")
        refreshToken = try fields.string("refreshToken")
        accessTokenExpiresAt = try fields.double("accessTokenExpiresAt")
        idTokenExpiresAt = try fields.double("idTokenExpiresAt")
        identity = try fields.object("identity", UserIdentity.init(fields:))
        origin = try fields.choice("origin")
        signedInAt = try fields.double("signedInAt")
        lastRefreshAt = try fields.double("lastRefreshAt")
        clockOffset = try fields.double("clockOffset")
        clockAnchor = try fields.object("clockAnchor") { anchor throws(JSONFields.Refused) in
            ProviderClockAnchor(
                bootID: try JSONFields.required(anchor.string("bootID")),
                providerMinusBoot: try JSONFields.required(anchor.double("providerMinusBoot")))
        }
        refusedClockOffset = try fields.double("refusedClockOffset")
        sessionEndedReason = try fields.string("sessionEndedReason")
        clientSecret = try fields.string("clientSecret")
        identityId = try fields.string("identityId")
        identityPoolId = try fields.string("identityPoolId")
        aws = try fields.object("aws") { aws throws(JSONFields.Refused) in
            CredentialRecord.StoredAWSCredentials(
                accessKeyId: try JSONFields.required(aws.string("accessKeyId")),
                secretAccessKey: try JSONFields.required(aws.string("secretAccessKey")),
                sessionToken: try JSONFields.required(aws.string("sessionToken")),
                expiresAt: try JSONFields.required(aws.double("expiresAt")),
                identityPoolId: try aws.string("identityPoolId"), roleARN: try aws.string("roleARN"))
        }
        device = try fields.object("device") { device throws(JSONFields.Refused) in
            CredentialRecord.StoredDevice(
                key: try JSONFields.required(device.string("key")),
                groupKey: try JSONFields.required(device.string("groupKey")),
                password: try JSONFields.required(device.string("password")),
                name: try JSONFields.required(device.string("name")))
        }
        binding = try fields.object("binding") { binding throws(JSONFields.Refused) in
            ProfileBinding(
                userPoolId: try JSONFields.required(binding.string("userPoolId")),
                clientId: try JSONFields.required(binding.string("clientId")))
        }
        pendingRevocations = try fields.objects("pendingRevocations") { pending throws(JSONFields.Refused) in
            CredentialRecord.StoredPendingRevocation(
                refreshToken: try JSONFields.required(pending.string("refreshToken")),
                origin: try JSONFields.required(pending.choice("origin")),
                signedInAt: try pending.double("signedInAt"), lastRefreshAt: try pending.double("lastRefreshAt"),
                lastTriedAt: try JSONFields.required(pending.double("lastTriedAt")),
                lastFailure: try JSONFields.required(pending.string("lastFailure")))
        }
    }
}

extension UserIdentity {
    init(fields: JSONFields) throws(JSONFields.Refused) {
        self.init(
            username: try JSONFields.required(fields.string("username")), subject: try fields.string("subject"),
            email: try fields.string("email"),
            federated: try JSONFields.required(
                fields.objects("federated") { link throws(JSONFields.Refused) in
                    FederatedLink(
                        provider: try JSONFields.required(link.string("provider")),
                        userId: try JSONFields.required(link.string("userId")))
                }))
    }
}
