import Glibc

/// A configured CA bundle file. Checked before each request so a missing or unreadable file is reported
/// as such, not as a TLS failure.
enum CABundle {
    static func checkReadable(_ path: String) throws(HTTPError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .caBundleUnreadable("\(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }
}
