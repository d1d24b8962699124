import FoundationEssentials

extension DataProtocol {
    /// Calls `body` with the bytes in one contiguous buffer whose base address is never nil (OpenSSL rejects
    /// some NULL pointers even with a zero length). Copies only when the bytes span several regions, and
    /// cleanses that copy afterwards since the bytes may be a key.
    func withContiguousBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var regionIterator = regions.makeIterator()
        let first = regionIterator.next()
        let result: Result<R, E>
        if let first, regionIterator.next() == nil {
            result = first.withUnsafeBytes { buffer in Result { () throws(E) -> R in try Self.callNonNil(buffer, body) }
            }
        } else if first == nil {
            result = Result { () throws(E) -> R in
                try Self.callNonNil(UnsafeRawBufferPointer(start: nil, count: 0), body)
            }
        } else {
            var copy = [UInt8](self)
            result = copy.withUnsafeBytes { buffer in Result { () throws(E) -> R in try Self.callNonNil(buffer, body) }
            }
            copy.withUnsafeMutableBytes { SecureMemory.cleanse($0) }
        }
        return try result.get()
    }

    private static func callNonNil<R, E: Error>(
        _ buffer: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        if buffer.baseAddress != nil { return try body(buffer) }
        var placeholder: UInt8 = 0
        return try withUnsafeBytes(of: &placeholder) { (placeholderBuffer) throws(E) -> R in
            try body(UnsafeRawBufferPointer(start: placeholderBuffer.baseAddress, count: 0))
        }
    }
}
