internal import COpenSSL

enum OpenSSLRandom {
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        precondition(buffer.count <= Int32.max, "SecureRandom: at most Int32.max bytes at once")
        guard RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1 else {
            fatalError("\(OpenSSLError.drain("RAND_bytes"))")
        }
    }
}
