import Foundation

/// Where known secrets show up, told by name, never by value: the output of a tool run outside the CLI's own
/// transcript (git, kubectl, a helper run by a link), the files under a test's isolated directories (the captures
/// of a child's /proc/self/cmdline and environ among them), and core files.
public enum SecretScan {
    /// - Parameter secrets: secret value to what it is.
    /// - Returns: the names of the secrets that the standard output or standard error of any of `outputs` holds.
    public static func names(of secrets: [String: String], in outputs: [ProcessOutput]) -> [String] {
        let texts = outputs.flatMap { [$0.stdoutText, $0.stderrText] }
        return secrets.filter { secret, _ in texts.contains { holds($0, secret) } }.map(\.value).sorted()
    }

    /// Whether `text` shows `secret` in any form a leak takes: raw; percent-encoded however much and in whichever
    /// case of hex (the text's escapes are decoded, with and without `+` as a space, before looking); or in base64 or
    /// base64url, whole or inside longer encoded data at any of the three alignments.
    public static func holds(_ text: String, _ secret: String) -> Bool {
        guard !secret.isEmpty else { return false }
        let decoded = [text, percentDecoded(text, plusIsSpace: false), percentDecoded(text, plusIsSpace: true)]
        return decoded.contains { $0.contains(secret) } || base64Forms(of: secret).contains { text.contains($0) }
    }

    /// `text` with every valid `%XX` decoded (and `+` read as a space when asked); anything else kept.
    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let escape = index + 2 < bytes.count ? String(decoding: bytes[index + 1...index + 2], as: UTF8.self) : ""
            if bytes[index] == UInt8(ascii: "%"), escape.allSatisfy(\.isHexDigit), let value = UInt8(escape, radix: 16)
            {
                output.append(value)
                index += 3
            } else {
                output.append(plusIsSpace && bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The base64 and base64url of `secret`, and of the groups of three bytes that lie wholly within it at each
    /// alignment (what base64 of longer data holding it shows); none shorter than 8 characters.
    public static func base64Forms(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        var forms = [Data(bytes).base64EncodedString()]
        for offset in 0..<3 where bytes.count - offset >= 6 {
            forms.append(Data(bytes[offset..<(offset + (bytes.count - offset) / 3 * 3)]).base64EncodedString())
        }
        forms = forms.map { String($0.prefix { $0 != "=" }) }
        forms += forms.map { $0.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
        return Array(Set(forms)).filter { $0.count >= 8 }
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
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files
    }
}
