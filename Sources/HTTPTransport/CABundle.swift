internal import Glibc
import SecureFiles
internal import SystemPlumbing

/// A configured CA bundle file. Checked before each request so a missing or unreadable file is reported as such,
/// not as a TLS failure; and since it decides which servers are believed, one that another user could change
/// (writable by others, or owned by someone other than this user or root) is refused with the command that fixes it.
enum CABundle {
    static func check(_ path: String) throws(HTTPError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .caBundleUnreadable("\(path): \(SystemCallError.text(errno))")
        }
        close(descriptor)
        do {
            try FileTrust.ownerWritable.check(path)
        } catch {
            throw .caBundleUnreadable(error.description)
        }
    }
}
