import AuthCrypto

#if canImport(Glibc)
    internal import Glibc
#endif

extension VaultRecordFile {
    /// The bytes before the ciphertext: magic, format version and nonce.
    static let headerByteCount = magic.count + 2 + AES256GCM.nonceByteCount

    /// What changes on every write of a record file, by any process: its nonce, random per write. Nil for bytes
    /// that do not start like a record of this version.
    static func tag(of bytes: some Collection<UInt8>) -> [UInt8]? {
        guard bytes.count >= headerByteCount else { return nil }
        let header = Array(bytes.prefix(headerByteCount))
        guard header.starts(with: magic), header[magic.count] == UInt8(formatVersion >> 8),
            header[magic.count + 1] == UInt8(formatVersion & 0xff)
        else { return nil }
        return Array(header.suffix(AES256GCM.nonceByteCount))
    }

    /// The tag of the record file at `path`, from its first bytes, without decrypting anything (no libcrypto); nil
    /// when it is not a regular file of this user's holding a record (removed, replaced by something else).
    static func tag(ofFileAt path: String) -> [UInt8]? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            return nil
        }
        var header = [UInt8](repeating: 0, count: headerByteCount)
        let count = header.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count == headerByteCount else { return nil }
        return tag(of: header)
    }
}
