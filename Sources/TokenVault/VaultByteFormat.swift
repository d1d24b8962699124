/// Big-endian fields for the vault's binary files.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ more: some Sequence<UInt8>) { bytes.append(contentsOf: more) }
    mutating func append(_ value: UInt8) { bytes.append(value) }
    mutating func append(_ value: UInt16) { bytes.append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xff)]) }
    mutating func append(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xff)) }
    }
    mutating func append(_ value: UInt64) {
        append(UInt32(value >> 32))
        append(UInt32(value & 0xffff_ffff))
    }

    /// A byte string of at most 255 bytes, preceded by its length.
    mutating func appendShort(_ more: [UInt8]) {
        precondition(more.count <= 255)
        append(UInt8(more.count))
        append(more)
    }
}

/// Reads what `ByteWriter` wrote; every read answers nil when the bytes run out (a truncated file).
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func read(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readUInt8() -> UInt8? { read(1)?[0] }

    mutating func readUInt16() -> UInt16? {
        read(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) }
    }

    mutating func readUInt32() -> UInt32? {
        read(4).map { $0.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
    }

    mutating func readUInt64() -> UInt64? {
        guard let high = readUInt32(), let low = readUInt32() else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    mutating func readShort() -> [UInt8]? {
        guard let count = readUInt8() else { return nil }
        return read(Int(count))
    }
}
