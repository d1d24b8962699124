import AuthCrypto
import FoundationEssentials

/// The client side of one USER_SRP_AUTH sign-in: the ephemeral pair (a, A) sent with InitiateAuth, and the
/// password claim that answers Cognito's PASSWORD_VERIFIER challenge (the math of REFERENCE section 1). A
/// remembered device proves itself the same way (DEVICE_SRP_AUTH, DEVICE_PASSWORD_VERIFIER), with its group key
/// for the pool name, its key for the user and its password.
struct SRPSignIn: Sendable {
    /// a: secret, used once.
    private let privateValue: BigUInt
    /// A = g^a mod N.
    let publicValue: BigUInt

    /// 256 random bits, as Cognito's SDKs use at least.
    static func randomPrivateValue() -> BigUInt {
        SecureRandom.secretBytes(count: 32).withUnsafeBytes { BigUInt(bigEndian: $0) }
    }

    init(privateValue: BigUInt) throws(CognitoError) {
        let publicValue = SRPGroup.generator.power(privateValue, modulus: SRPGroup.prime)
        guard !privateValue.isZero, !publicValue.modulo(SRPGroup.prime).isZero else {
            throw .invalidSRPChallenge("the private value is unusable")
        }
        self.privateValue = privateValue
        self.publicValue = publicValue
    }

    /// SRP_A: lowercase hex without leading zeros.
    var publicValueHex: String { publicValue.hex }

    /// PASSWORD_CLAIM_SIGNATURE: Base64(HMAC-SHA256(K, poolName | userIdForSRP | secretBlock | timestamp)).
    func passwordClaimSignature(
        poolName: String,
        userIdForSRP: String,
        password: SecretBytes,
        saltHex: String,
        serverPublicValueHex: String,
        secretBlock: [UInt8],
        timestamp: String
    ) throws(CognitoError) -> String {
        let key = try authenticationKey(
            poolName: poolName, userIdForSRP: userIdForSRP, password: password,
            saltHex: saltHex, serverPublicValueHex: serverPublicValueHex)
        let message = Array(poolName.utf8) + Array(userIdForSRP.utf8) + secretBlock + Array(timestamp.utf8)
        return Data(HMACSHA256.authenticationCode(for: message, key: key)).base64EncodedString()
    }

    /// K = HKDF-SHA256(ikm: pad(S), salt: pad(u), info: "Caldera Derived Key"), 16 bytes.
    func authenticationKey(
        poolName: String, userIdForSRP: String, password: SecretBytes, saltHex: String, serverPublicValueHex: String
    ) throws(CognitoError) -> SecretBytes {
        let prime = SRPGroup.prime
        guard let serverPublicValue = BigUInt(hex: serverPublicValueHex) else {
            throw .invalidSRPChallenge("SRP_B is not hex")
        }
        guard let salt = BigUInt(hex: saltHex) else { throw .invalidSRPChallenge("SALT is not hex") }
        guard !serverPublicValue.modulo(prime).isZero else { throw .invalidSRPChallenge("B mod N is zero") }

        // u = H(pad(A) | pad(B))
        let scrambler = BigUInt(
            bigEndian: SHA256.hash(data: SRPGroup.pad(publicValue) + SRPGroup.pad(serverPublicValue)))
        guard !scrambler.isZero else { throw .invalidSRPChallenge("u is zero") }

        let exponentOfVerifier = SRPGroup.passwordExponent(
            realm: poolName, user: userIdForSRP, password: password, salt: salt)

        // S = (B - k * g^x) ^ (a + u * x) mod N
        let verifier = SRPGroup.generator.power(exponentOfVerifier, modulus: prime)
        let base = serverPublicValue.subtracting(
            SRPGroup.multiplier.multiplying(verifier, modulus: prime), modulus: prime)
        let premasterSecret = base.power(privateValue + scrambler * exponentOfVerifier, modulus: prime)

        do {
            return try HKDFSHA256.deriveKey(
                inputKeyMaterial: SRPGroup.pad(premasterSecret), salt: SRPGroup.pad(scrambler),
                info: Array("Caldera Derived Key".utf8), outputByteCount: 16)
        } catch {
            throw .invalidSRPChallenge("key derivation failed: \(error)")
        }
    }
}
