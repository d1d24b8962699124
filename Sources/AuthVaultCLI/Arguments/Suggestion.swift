/// "Did you mean ...?" for a mistyped command or option: the closest known name, if it is close enough to be what
/// the user meant (a typo, a swapped pair of letters, a missing or extra letter, or a prefix of the name).
enum Suggestion {
    /// The line to add to an error, or nil when nothing is close.
    static func line(for given: String, among names: [String]) -> String? {
        closest(to: given, among: names).map { "Did you mean '\($0)'?" }
    }

    static func closest(to given: String, among names: [String]) -> String? {
        let typed = Array(given.lowercased())
        guard !typed.isEmpty else { return nil }
        let scored = names.map { name in (name, distance(typed, Array(name.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let allowed = max(1, typed.count / 3)
        if best.1 <= allowed { return best.0 }
        // `authvault confi` or `--identity`: an unambiguous prefix.
        let prefixed = names.filter { $0.lowercased().hasPrefix(given.lowercased()) }
        return typed.count >= 3 && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps, one each.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
