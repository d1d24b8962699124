import AuthCrypto

/// The group Cognito's SRP uses: the 3072-bit MODP prime of RFC 3526 section 4 (also RFC 5054 appendix A),
/// generator 2, hash SHA-256.
enum SRPGroup {
    static let prime = BigUInt(
        hex:
            "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
            + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
            + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
            + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
            + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
            + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
            + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF")!

    static let generator = BigUInt(2)

    /// k = H(pad(N) | pad(g)).
    static let multiplier = BigUInt(bigEndian: SHA256.hash(data: pad(prime) + pad(generator)))

    /// The big-endian bytes as Cognito's SDKs hash them: minimal, with a leading 0x00 when the high bit is set
    /// (the hex is padded so the sign bit is clear), and one 0x00 byte for zero.
    static func pad(_ value: BigUInt) -> [UInt8] {
        let bytes = value.bigEndianBytes
        guard let first = bytes.first, first & 0x80 == 0 else { return [0] + bytes }
        return bytes
    }

    /// x = H(pad(salt) | H(realm | user | ":" | password)): the pool name and USER_ID_FOR_SRP for a user, the group
    /// key and device key for a device.
    static func passwordExponent(realm: String, user: String, password: SecretBytes, salt: BigUInt) -> BigUInt {
        let identityHash = password.withUnsafeBytes { passwordBytes in
            Array("\(realm)\(user):".utf8).withUnsafeBytes { prefix in
                SecretBytes([prefix, passwordBytes].joined()).withUnsafeBytes { SHA256.hash(data: $0) }
            }
        }
        return BigUInt(bigEndian: SHA256.hash(data: pad(salt) + identityHash))
    }
}
