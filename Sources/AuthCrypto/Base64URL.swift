import FoundationEssentials

/// The URL- and filename-safe base64 alphabet of RFC 4648 section 5, as JWTs and PKCE use it.
public enum Base64URL {
    /// Without "=" padding.
    public static func encode(_ bytes: some DataProtocol) -> String {
        bytes.withContiguousBytes { input in
            String(unsafeUninitializedCapacity: encodedCount(input.count)) { output in
                encode(input, into: UnsafeMutableRawBufferPointer(output))
                return output.count
            }
        }
    }

    /// Accepts input with or without "=" padding. Nil for any character outside the alphabet (including
    /// "+", "/" and whitespace), an impossible length, or non-zero bits after the last byte, so each byte
    /// string has exactly one accepted encoding.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        let text = Array(string.utf8)
        let end = text.lastIndex { $0 != UInt8(ascii: "=") }.map { $0 + 1 } ?? 0
        let paddingCount = text.count - end
        guard paddingCount == 0 || (paddingCount <= 2 && text.count % 4 == 0), end % 4 != 1 else { return nil }

        var output: [UInt8] = []
        output.reserveCapacity(end * 3 / 4)
        var accumulator: UInt32 = 0
        var pendingBits = 0
        for character in text[..<end] {
            guard let value = sextet(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            pendingBits += 6
            if pendingBits >= 8 {
                pendingBits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> pendingBits))
                accumulator &= (1 << pendingBits) - 1
            }
        }
        return accumulator == 0 ? output : nil
    }

    /// The unpadded length for `byteCount` bytes.
    static func encodedCount(_ byteCount: Int) -> Int {
        (byteCount * 4 + 2) / 3
    }

    /// Encodes into a buffer of exactly `encodedCount(input.count)` bytes, so secrets (a PKCE verifier)
    /// can be encoded straight into their final storage.
    static func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == encodedCount(input.count))
        var written = 0
        func emit(_ sextet: UInt32) {
            output[written] = alphabet[Int(sextet & 0x3f)]
            written += 1
        }
        var index = 0
        while index < input.count {
            let remaining = input.count - index
            let group =
                UInt32(input[index]) << 16
                | (remaining > 1 ? UInt32(input[index + 1]) << 8 : 0)
                | (remaining > 2 ? UInt32(input[index + 2]) : 0)
            emit(group >> 18)
            emit(group >> 12)
            if remaining > 1 { emit(group >> 6) }
            if remaining > 2 { emit(group) }
            index += 3
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
