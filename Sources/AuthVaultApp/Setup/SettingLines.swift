/// A file of `key = value` lines under `[section]` headers (the AWS config; the Vault CLI's top-level HCL
/// attributes), changed one line at a time so that comments, order, spacing and every other line stay as they are.
/// Only a key at the start of its line counts: an indented one belongs to a nested block.
struct SettingLines: Sendable {
    private var lines: [String]

    init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        self.lines = lines
    }

    /// Every line, each ending in a newline.
    var text: String { lines.map { $0 + "\n" }.joined() }

    /// The value of `key` in `section` (nil: before any header), as written after the `=`.
    func value(of key: String, in section: String?) -> String? {
        guard let body = body(of: section), let line = index(of: key, in: body) else { return nil }
        return Self.value(of: lines[line])
    }

    /// Sets `key` in `section` to `value`: its line replaced, else a line added at the section's end (after its
    /// last non-blank line), else the section added at the end of the file.
    mutating func set(_ key: String, to value: String, in section: String?) {
        let line = "\(key) = \(value)"
        guard let body = body(of: section) else {
            if lines.last.map({ !$0.trimmedOfSpaces.isEmpty }) == true { lines.append("") }
            lines += ["[\(section ?? "")]", line]
            return
        }
        if let existing = index(of: key, in: body) {
            lines[existing] = line
        } else {
            let end = body.last { !lines[$0].trimmedOfSpaces.isEmpty }.map { $0 + 1 } ?? body.lowerBound
            lines.insert(line, at: end)
        }
    }

    mutating func remove(_ key: String, in section: String?) {
        guard let body = body(of: section), let line = index(of: key, in: body) else { return }
        lines.remove(at: line)
    }

    /// The lines of `section` after its header; for nil, those before the first header (the whole file when it
    /// has none). Nil when the section does not exist.
    private func body(of section: String?) -> Range<Int>? {
        let headers = lines.indices.filter { Self.header(lines[$0]) != nil }
        guard let section else { return 0..<(headers.first ?? lines.count) }
        guard let start = headers.first(where: { Self.header(lines[$0]) == section }) else { return nil }
        return (start + 1)..<(headers.first { $0 > start } ?? lines.count)
    }

    private func index(of key: String, in body: Range<Int>) -> Int? {
        body.first { Self.key(of: lines[$0]) == key }
    }

    /// `[ profile  work ]` is section "profile work".
    private static func header(_ line: String) -> String? {
        let trimmed = line.trimmedOfSpaces
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]"), trimmed.count >= 2 else { return nil }
        return trimmed.dropFirst().dropLast().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func key(of line: String) -> String? {
        guard let first = line.first, !first.isWhitespace, first != "#", first != ";",
            let equals = line.firstIndex(of: "=")
        else { return nil }
        return line[..<equals].trimmedOfSpaces
    }

    private static func value(of line: String) -> String? {
        line.firstIndex(of: "=").map { line[line.index(after: $0)...].trimmedOfSpaces }
    }
}

extension StringProtocol {
    fileprivate var trimmedOfSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

extension SettingLines {
    /// The plan that sets `key` to `value` in `section` of the file at `path` (undo: removes it where it is that
    /// value, or puts back `restoring`, the value setup replaced), every other line kept; nothing when the file
    /// already says so.
    static func plan(
        _ tool: SetupTool, path: String, key: String, value: String, in section: String?, undo: Bool,
        restoring: [String]? = nil
    ) throws(SetupError) -> SetupPlan {
        let file = try ToolFile.read(path)
        var lines = SettingLines(file.text)
        let current = lines.value(of: key, in: section)
        let place = section.map { "[\($0)] " } ?? ""
        let change: String
        if undo {
            guard current == value else { return SetupPlan(tool: tool, target: path, changes: [], edit: .none) }
            if let previous = restoring?.first {
                lines.set(key, to: previous, in: section)
                change = "\(place)\(key) = \(previous) again (setup replaced it)"
            } else {
                lines.remove(key, in: section)
                change = "\(place)remove \(key) = \(value)"
            }
        } else {
            lines.set(key, to: value, in: section)
            change = "\(place)\(key) = \(value)" + (current.map { $0 == value ? "" : " (was \($0))" } ?? "")
        }
        var plan = SetupPlan(
            tool: tool, target: path, changes: [change], edit: file.replacement(Array(lines.text.utf8)))
        if !undo, current != value { plan.replaced = current.map { [$0] } }
        return plan
    }
}
