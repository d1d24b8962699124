internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Why a file operation failed. Messages name the path and say what to do; they never carry file contents.
public enum FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case permissionDenied(path: String)
    /// The file or directory is readable or writable by other users.
    case unsafePermissions(path: String, mode: UInt32, expected: UInt32)
    /// The file or directory belongs to another user, who could change it at any time.
    case foreignOwner(path: String, owner: UInt32)
    case notADirectory(path: String)
    case io(path: String, operation: String, errno: Int32)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "\(path) does not exist"
        case .permissionDenied(let path):
            return "permission denied: \(path)"
        case .unsafePermissions(let path, let mode, let expected):
            let what = mode & 0o022 != 0 ? "change" : "read"
            return "\(path) has mode \(octal(mode)), which lets other users \(what) it; "
                + "fix it with: chmod \(octal(expected)) '\(path)'"
        case .foreignOwner(let path, let owner):
            return "\(path) belongs to user \(userName(owner)), who could change it; "
                + "fix it with: chown \(userName(geteuid())) '\(path)'"
        case .notADirectory(let path):
            return "\(path) exists but is not a directory"
        case .io(let path, let operation, let code):
            return "\(operation) \(path) failed: \(SystemCallError.text(code))"
        }
    }

    static func from(errno code: Int32, path: String, operation: String) -> FileSystemError {
        switch code {
        case ENOENT: return .notFound(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case ENOTDIR: return .notADirectory(path: path)
        default: return .io(path: path, operation: operation, errno: code)
        }
    }
}

func octal(_ mode: UInt32) -> String {
    "0" + String(mode & 0o7777, radix: 8)
}

/// The user's login name, or the numeric id when it has none.
func userName(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
    return String(cString: name)
}
