// Hex helpers for writing published vectors; independent of AuthCrypto's BigUInt.

/// The bytes of a hex string; spaces and newlines are ignored so vectors can be pasted as printed.
func bytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    precondition(digits.count.isMultiple(of: 2), "odd hex length")
    var result: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        result.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return result
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
