import AuthCrypto

/// Throughput of the primitives the hot paths use, against Python's hmac (OpenSSL underneath) and pow() (CPython's
/// own big integers), measured in the same run.
enum CryptoBenchmarks {
    static func run() throws -> [Row] {
        [try hmac(), try modularExponentiation()]
    }

    private static func hmac() throws -> Row {
        let key = Array(repeating: UInt8(0x0b), count: 32)
        let message = Array(repeating: UInt8(0x61), count: 64)
        let ours = throughput(batch: 2_000) {
            keepAlive(HMACSHA256.authenticationCode(for: message, key: key))
        }
        let peer = try pythonRate(
            """
            import hmac, hashlib
            key = b'\\x0b' * 32; msg = b'a' * 64
            def op(): hmac.new(key, msg, hashlib.sha256).digest()
            """, batch: 2_000)
        return Row(
            name: "HMAC-SHA256, 64-byte message", ours: formatRate(ours), peer: "python hmac " + formatRate(peer),
            ratio: ratio(ours, over: peer))
    }

    private static func modularExponentiation() throws -> Row {
        let modulus = BigUInt(hex: rfc5054Prime3072)!
        let base = BigUInt(2)
        let exponent = BigUInt(bigEndian: Array(repeating: UInt8(0xa5), count: 32))
        let ours = throughput(batch: 20) {
            keepAlive(base.power(exponent, modulus: modulus))
        }
        let peer = try pythonRate(
            """
            N = int('\(rfc5054Prime3072)', 16)
            e = int('a5' * 32, 16)
            def op(): pow(2, e, N)
            """, batch: 20)
        return Row(
            name: "modexp 3072-bit, 256-bit exponent", ours: formatRate(ours), peer: "python pow " + formatRate(peer),
            ratio: ratio(ours, over: peer))
    }

    /// Runs `op()` from a Python setup snippet in batches for a second and returns its median rate.
    private static func pythonRate(_ setup: String, batch: Int) throws -> Double {
        let script =
            setup + """

                import time, statistics
                rates = []
                end = time.monotonic() + 1.0
                while time.monotonic() < end:
                    t = time.monotonic()
                    for _ in range(\(batch)): op()
                    rates.append(\(batch) / (time.monotonic() - t))
                print(statistics.median(rates))
                """
        let output = try spawnAndCapture(["python3", "-c", script])
        guard let rate = Double(output.filter { !$0.isWhitespace }) else { throw SpawnError.failed("python3 peer", -1) }
        return rate
    }
}

/// The 3072-bit group prime of RFC 5054 / RFC 3526, the one Cognito's SRP uses.
let rfc5054Prime3072 = """
    FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200CBBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF
    """
