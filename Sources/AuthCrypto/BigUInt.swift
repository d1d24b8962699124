import FoundationEssentials

/// A non-negative integer of any size, for SRP's group arithmetic. Values are immutable: every operation
/// returns a new value. `description` shows only the size, since values are often secrets; use `hex`
/// where the digits are meant to be seen.
public struct BigUInt: Sendable, Equatable, Comparable, CustomStringConvertible {
    private let number: OpenSSLBigNumber

    private init(_ number: OpenSSLBigNumber) {
        self.number = number
    }

    public init(_ value: UInt64) {
        self.init(bigEndian: withUnsafeBytes(of: value.bigEndian) { [UInt8]($0) })
    }

    /// Hex digits in either case, leading zeros allowed; no sign, no "0x", no spaces. Nil for anything else.
    public init?(hex: String) {
        guard !hex.isEmpty, hex.utf8.allSatisfy(Self.isHexDigit), let number = OpenSSLBigNumber(validatedHex: hex)
        else {
            return nil
        }
        self.init(number)
    }

    /// Leading zero bytes are allowed; empty is zero.
    public init(bigEndian bytes: some DataProtocol) {
        self.init(bytes.withContiguousBytes { OpenSSLBigNumber(bigEndian: $0) })
    }

    /// Lowercase, no leading zeros, "0" for zero.
    public var hex: String {
        var digits: [UInt8] = []
        digits.reserveCapacity(number.byteCount * 2)
        for byte in bigEndianBytes {
            digits.append(Self.hexDigits[Int(byte >> 4)])
            digits.append(Self.hexDigits[Int(byte & 0x0f)])
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        return significant.isEmpty ? "0" : String(decoding: significant, as: UTF8.self)
    }

    /// The minimal big-endian bytes: no leading zero byte, and `[]` (empty) for zero.
    public var bigEndianBytes: [UInt8] { number.write(bigEndian: number.byteCount) }

    /// Left-padded with zeros to `count` bytes. Never truncates: a value that needs more than `count` bytes
    /// comes back in its minimal form, longer than `count`.
    public func bigEndianBytes(paddedTo count: Int) -> [UInt8] {
        number.write(bigEndian: Swift.max(count, number.byteCount))
    }

    public var isZero: Bool { number.isZero }

    /// The number of significant bits (0 for zero).
    public var bitWidth: Int { number.bitCount }

    /// self^exponent mod modulus, treating the exponent as secret (constant time) when the modulus is odd.
    public func power(_ exponent: BigUInt, modulus: BigUInt) -> BigUInt {
        Self.requireNonZero(modulus)
        return BigUInt(number.power(exponent.number, modulus: modulus.number))
    }

    public func modulo(_ modulus: BigUInt) -> BigUInt {
        Self.requireNonZero(modulus)
        return BigUInt(number.modulo(modulus.number))
    }

    /// (self + other) mod modulus.
    public func adding(_ other: BigUInt, modulus: BigUInt) -> BigUInt {
        Self.requireNonZero(modulus)
        return BigUInt(number.adding(other.number, modulus: modulus.number))
    }

    /// (self · other) mod modulus.
    public func multiplying(_ other: BigUInt, modulus: BigUInt) -> BigUInt {
        Self.requireNonZero(modulus)
        return BigUInt(number.multiplying(other.number, modulus: modulus.number))
    }

    /// (self − other) mod modulus, always in 0..<modulus, also when other > self.
    public func subtracting(_ other: BigUInt, modulus: BigUInt) -> BigUInt {
        Self.requireNonZero(modulus)
        return BigUInt(number.subtracting(other.number, modulus: modulus.number))
    }

    public static func + (a: BigUInt, b: BigUInt) -> BigUInt { BigUInt(a.number.adding(b.number)) }
    public static func * (a: BigUInt, b: BigUInt) -> BigUInt { BigUInt(a.number.multiplying(b.number)) }

    public static func == (a: BigUInt, b: BigUInt) -> Bool { a.number.compare(b.number) == 0 }
    public static func < (a: BigUInt, b: BigUInt) -> Bool { a.number.compare(b.number) < 0 }

    public var description: String { "BigUInt(<\(bitWidth) bits>)" }

    /// Reducing modulo zero is a programming error, like dividing by zero.
    private static func requireNonZero(_ modulus: BigUInt) {
        precondition(!modulus.isZero, "BigUInt: modulus must not be zero")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func isHexDigit(_ character: UInt8) -> Bool {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
