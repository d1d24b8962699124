import FoundationEssentials

/// scrypt's cost: N = 2^logN, block size r, parallelism p (RFC 7914). Stored next to the data it protects.
public struct ScryptParameters: Sendable, Equatable, Codable {
    public var logN: UInt8
    public var r: UInt32
    public var p: UInt32

    public init(logN: UInt8, r: UInt32, p: UInt32) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// N = 2^15, r = 8, p = 1: about 32 MiB and a few tenths of a second, for a passphrase typed once a session.
    public static let interactive = ScryptParameters(logN: 15, r: 8, p: 1)

    /// The bytes OpenSSL allocates, 128·r·(N + 2 + p), saturating at UInt64.max. Passed to OpenSSL as its
    /// memory limit, so parameters a caller accepted are never refused by OpenSSL's 32 MiB default.
    public var memoryBytes: UInt64 {
        guard logN < 64 else { return .max }
        let n = UInt64(1) << UInt64(logN)
        let (blocks, overflowed) = n.addingReportingOverflow(2 + UInt64(p))
        let (perBlock, overflowedBlockSize) = UInt64(128).multipliedReportingOverflow(by: UInt64(r))
        let (total, overflowedTotal) = blocks.multipliedReportingOverflow(by: perBlock)
        return overflowed || overflowedBlockSize || overflowedTotal ? .max : total
    }

    /// The RFC's limits: N a power of two above 1, r·p < 2^30.
    func validate() throws(CryptoError) {
        guard (1...63).contains(logN) else { throw .invalidParameter("scrypt logN must be 1 to 63") }
        guard r >= 1, p >= 1, UInt64(r) * UInt64(p) < 1 << 30 else {
            throw .invalidParameter("scrypt r and p must be at least 1 with r*p < 2^30")
        }
    }
}

/// scrypt (RFC 7914), for keys derived from passphrases.
public enum Scrypt {
    public static func deriveKey(
        password: SecretBytes,
        salt: some DataProtocol,
        parameters: ScryptParameters,
        outputByteCount: Int
    ) throws(CryptoError) -> SecretBytes {
        try parameters.validate()
        guard outputByteCount >= 1 else { throw .invalidParameter("scrypt output must be at least 1 byte") }
        return try password.withUnsafeBytes { (password) throws(CryptoError) -> SecretBytes in
            try salt.withContiguousBytes { (salt) throws(CryptoError) -> SecretBytes in
                try OpenSSLKDF.scrypt(
                    password: password, salt: salt, parameters: parameters, outputByteCount: outputByteCount)
            }
        }
    }
}
