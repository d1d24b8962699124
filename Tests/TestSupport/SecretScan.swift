import Foundation

/// Where known secrets show up, told by name, never by value: the output of a tool run outside the CLI's own
/// transcript (git, kubectl, a helper run by a link), the files under a test's isolated directories (the captures
/// of a child's /proc/self/cmdline and environ among them), and core files.
public enum SecretScan {
    /// - Parameter secrets: secret value to what it is.
    /// - Returns: the names of the secrets that the standard output or standard error of any of `outputs` holds.
    public static func names(of secrets: [String: String], in outputs: [ProcessOutput]) -> [String] {
        let texts = outputs.flatMap { [$0.stdoutText, $0.stderrText] }
        return secrets.filter { secret, _ in texts.contains { $0.contains(secret) } }.map(\.value).sorted()
    }

    /// Each secret found in a regular file under `root`, as "NAME in PATH" (PATH relative to `root`). A JWT kept in
    /// pieces still shows its claims segment, so that is looked for too.
    public static func places(of secrets: [String: String], inFilesUnder root: String) -> [String] {
        var places: [String] = []
        for path in regularFiles(under: root) {
            guard let contents = FileManager.default.contents(atPath: path) else { continue }
            let place = String(path.dropFirst(root.count))
            for (secret, name) in secrets where contents.range(of: Data(secret.utf8)) != nil {
                places.append("\(name) in \(place)")
            }
            for (secret, name) in secrets {
                let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
                if parts.count == 3, parts[1].count > 16, contents.range(of: Data(parts[1].utf8)) != nil {
                    places.append("the claims of \(name) in \(place)")
                }
            }
        }
        return places
    }

    /// Core files (kernel.core_pattern "core" or "core.PID": written in the crashing process's working directory)
    /// anywhere under `root` or directly in one of `directories`: a process holding secrets must never leave one.
    public static func coreFiles(under root: String, directlyIn directories: [String]) -> [String] {
        let direct = directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).map { directory + "/" + $0 }
        }
        return (regularFiles(under: root) + direct).filter { path in
            let name = URL(fileURLWithPath: path).lastPathComponent
            return name == "core" || (name.hasPrefix("core.") && name.dropFirst(5).allSatisfy(\.isNumber))
        }
    }

    /// The kernel's core_pattern, for a report that says where cores would have gone.
    public static var corePattern: String {
        (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    }

    public static func regularFiles(under directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(path) }
        }
        return files
    }
}
