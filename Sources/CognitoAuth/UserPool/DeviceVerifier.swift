import AuthCrypto
import FoundationEssentials

/// What ConfirmDevice registers for a new device: a random password (base64 of 40 random bytes, as the SDKs make
/// it), a random salt, and the SRP verifier g^x mod N of the two, with the device's group key and key standing in
/// for the pool name and the user (REFERENCE section 1).
struct DeviceVerifier: Sendable {
    let password: SecretBytes
    /// `PasswordVerifier`: base64 of pad(v).
    let verifier: String
    /// `Salt`: base64 of pad(salt).
    let salt: String

    init(groupKey: String, deviceKey: String, password: SecretBytes, salt: BigUInt) {
        self.password = password
        let exponent = SRPGroup.passwordExponent(realm: groupKey, user: deviceKey, password: password, salt: salt)
        verifier = Data(SRPGroup.pad(SRPGroup.generator.power(exponent, modulus: SRPGroup.prime))).base64EncodedString()
        self.salt = Data(SRPGroup.pad(salt)).base64EncodedString()
    }

    /// A fresh password and salt.
    static func random(groupKey: String, deviceKey: String) -> DeviceVerifier {
        let password = SecureRandom.secretBytes(count: 40).withUnsafeBytes {
            SecretBytes(utf8: Data($0).base64EncodedString())
        }
        let salt = SecureRandom.secretBytes(count: 16).withUnsafeBytes { BigUInt(bigEndian: $0) }
        return DeviceVerifier(groupKey: groupKey, deviceKey: deviceKey, password: password, salt: salt)
    }
}
