internal import COpenSSL

/// A BIGNUM that is never changed after it is made, so values can share it across threads.
/// Freed with BN_clear_free: big integers here are often secrets (SRP's a, x, S).
final class OpenSSLBigNumber: @unchecked Sendable {
    private let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        BN_clear_free(pointer)
    }

    /// A fresh BIGNUM the caller frees (for building keys).
    static func make(_ bigEndian: UnsafeRawBufferPointer) throws(CryptoError) -> OpaquePointer {
        guard bigEndian.count <= Int32.max else { throw .invalidParameter("integer is too long") }
        guard
            let made = BN_bin2bn(
                bigEndian.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(bigEndian.count), nil)
        else {
            throw OpenSSLError.drain("BN_bin2bn")
        }
        return made
    }

    convenience init(bigEndian: UnsafeRawBufferPointer) {
        do {
            self.init(taking: try Self.make(bigEndian))
        } catch {
            fatalError("\(error)")
        }
    }

    /// `hex` must already be checked to hold only hex digits; nil only past BN_hex2bn's length limit.
    convenience init?(validatedHex hex: String) {
        var made: OpaquePointer?
        let parsed = hex.withCString { BN_hex2bn(&made, $0) }
        guard let made, Int(parsed) == hex.utf8.count else {
            if let made { BN_free(made) }
            OpenSSLError.clear()
            return nil
        }
        self.init(taking: made)
    }

    var byteCount: Int { Int(authvault_BN_num_bytes(pointer)) }
    var bitCount: Int { Int(BN_num_bits(pointer)) }
    var isZero: Bool { BN_is_zero(pointer) == 1 }

    /// Writes exactly `count` bytes, zero-padded on the left; `count` must be at least `byteCount`.
    func write(bigEndian count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let written = BN_bn2binpad(pointer, buffer.baseAddress, Int32(count))
            precondition(written == count, "BN_bn2binpad")
            initialized = count
        }
    }

    func compare(_ other: OpenSSLBigNumber) -> Int32 {
        BN_cmp(pointer, other.pointer)
    }

    /// self^exponent mod modulus. For an odd modulus (every cryptographic one) the exponent is treated as secret:
    /// BN_FLG_CONSTTIME, set on a private copy since the shared value must not change, selects
    /// BN_mod_exp_mont_consttime. OpenSSL supports that flag only for odd moduli.
    func power(_ exponent: OpenSSLBigNumber, modulus: OpenSSLBigNumber) -> OpenSSLBigNumber {
        guard let secretExponent = BN_dup(exponent.pointer) else { fatalError("\(OpenSSLError.drain("BN_dup"))") }
        defer { BN_clear_free(secretExponent) }
        if BN_is_odd(modulus.pointer) == 1 { BN_set_flags(secretExponent, BN_FLG_CONSTTIME) }
        return Self.compute("BN_mod_exp") { BN_mod_exp($0, pointer, secretExponent, modulus.pointer, $1) }
    }

    func modulo(_ modulus: OpenSSLBigNumber) -> OpenSSLBigNumber {
        Self.compute("BN_nnmod") { BN_nnmod($0, pointer, modulus.pointer, $1) }
    }

    func adding(_ other: OpenSSLBigNumber, modulus: OpenSSLBigNumber) -> OpenSSLBigNumber {
        Self.compute("BN_mod_add") { BN_mod_add($0, pointer, other.pointer, modulus.pointer, $1) }
    }

    func multiplying(_ other: OpenSSLBigNumber, modulus: OpenSSLBigNumber) -> OpenSSLBigNumber {
        Self.compute("BN_mod_mul") { BN_mod_mul($0, pointer, other.pointer, modulus.pointer, $1) }
    }

    /// BN_mod_sub returns the non-negative residue.
    func subtracting(_ other: OpenSSLBigNumber, modulus: OpenSSLBigNumber) -> OpenSSLBigNumber {
        Self.compute("BN_mod_sub") { BN_mod_sub($0, pointer, other.pointer, modulus.pointer, $1) }
    }

    func adding(_ other: OpenSSLBigNumber) -> OpenSSLBigNumber {
        Self.compute("BN_add") { result, _ in BN_add(result, pointer, other.pointer) }
    }

    func multiplying(_ other: OpenSSLBigNumber) -> OpenSSLBigNumber {
        Self.compute("BN_mul") { BN_mul($0, pointer, other.pointer, $1) }
    }

    /// Runs one BN operation into a new BIGNUM. These fail only when memory runs out (moduli are checked non-zero
    /// before), so a failure stops the process.
    private static func compute(
        _ operation: String, _ body: (_ result: OpaquePointer, _ context: OpaquePointer) -> Int32
    ) -> OpenSSLBigNumber {
        guard let result = BN_new(), let context = BN_CTX_new() else { fatalError("\(OpenSSLError.drain("BN_new"))") }
        defer { BN_CTX_free(context) }
        OpenSSLError.require(body(result, context) == 1, operation)
        return OpenSSLBigNumber(taking: result)
    }
}
