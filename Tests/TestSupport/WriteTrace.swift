import Foundation

/// What a program changed on this machine, as Debian's strace saw it: every path it created, opened for writing,
/// renamed, linked, removed or changed the mode of, and every key it added to a kernel keyring. The program runs
/// under `strace -ff` (one trace file per process, so no call is split across lines) with `-y`, which writes each
/// descriptor's path beside it, so a call relative to a directory descriptor is resolved.
public struct WriteTrace: Sendable {
    /// The absolute paths changed by calls that succeeded; a relative one is kept as it is (and so fails any
    /// "inside this directory" check).
    public let paths: [String]
    /// Keys added to a keyring (`add_key` that succeeded).
    public let keysAdded: Int

    public static let calls =
        "open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,symlink,symlinkat,"
        + "unlink,unlinkat,rmdir,chmod,fchmodat,truncate,add_key"

    /// strace's arguments before the program's: `strace ARGUMENTS PROGRAM ...`.
    public static func straceArguments(output prefix: String) -> [String] {
        ["-ff", "-qq", "-y", "-e", "trace=" + calls, "-o", prefix]
    }

    /// Reads the trace files `prefix.PID`.
    public init(output prefix: String) throws {
        let directory = (prefix as NSString).deletingLastPathComponent
        let base = (prefix as NSString).lastPathComponent + "."
        var paths: [String] = []
        var keys = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasPrefix(base) {
            for line in try String(contentsOfFile: directory + "/" + name, encoding: .utf8).split(separator: "\n") {
                guard let call = Self.successfulCall(line) else { continue }
                if call.name == "add_key" {
                    keys += 1
                    continue
                }
                paths += Self.changedPaths(call)
            }
        }
        self.paths = paths.sorted()
        keysAdded = keys
    }

    /// The paths not inside `directory`. Both sides are standardized (`//` and `..` taken out): strace prints a
    /// descriptor's path as the kernel resolved it, and a path argument as the program passed it.
    public func paths(outside directory: String) -> [String] {
        let inside = (directory as NSString).standardizingPath
        return paths.filter { path in
            let standard = (path as NSString).standardizingPath
            return !standard.hasPrefix(inside + "/") && standard != inside
        }
    }

    private struct Call {
        let name: String
        let arguments: Substring
        let result: Substring
    }

    /// `name(arguments) = result` for a call that did not fail.
    private static func successfulCall(_ line: Substring) -> Call? {
        guard let open = line.firstIndex(of: "("), let close = line.range(of: ") = ", options: .backwards) else {
            return nil
        }
        let result = line[close.upperBound...]
        guard !result.hasPrefix("-1") else { return nil }
        return Call(
            name: String(line[..<open]), arguments: line[line.index(after: open)..<close.lowerBound], result: result)
    }

    private static func changedPaths(_ call: Call) -> [String] {
        switch call.name {
        case "open", "openat", "creat":
            let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"].contains { call.arguments.contains($0) }
            guard call.name == "creat" || writes else { return [] }
            // `= 3</the/opened/path>`: the path the descriptor names, resolved by strace.
            guard let start = call.result.firstIndex(of: "<"), call.result.hasSuffix(">") else {
                return [String(call.arguments)]
            }
            return [
                String(call.result[call.result.index(after: start)..<call.result.index(before: call.result.endIndex)])
            ]
        default:
            return resolvedPaths(in: call.arguments)
        }
    }

    /// Each quoted path of the arguments, joined to the directory descriptor (`3</dir>` or `AT_FDCWD</cwd>`) before
    /// it when relative.
    private static func resolvedPaths(in arguments: Substring) -> [String] {
        var paths: [String] = []
        var directory: String?
        var rest = arguments
        while let quote = rest.firstIndex(where: { $0 == "\"" || $0 == "<" }) {
            let closing: Character = rest[quote] == "\"" ? "\"" : ">"
            let afterQuote = rest.index(after: quote)
            guard let end = rest[afterQuote...].firstIndex(of: closing) else { break }
            let text = String(rest[afterQuote..<end])
            if closing == ">" {
                directory = text
            } else {
                if !text.hasPrefix("/"), let directory {
                    paths.append(directory + "/" + text)
                } else {
                    paths.append(text)
                }
                directory = nil
            }
            rest = rest[rest.index(after: end)...]
        }
        return paths
    }
}
