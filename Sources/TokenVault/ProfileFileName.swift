/// Which profile names can name a file (a record, a revision): letters, digits, '.', '_', '-', '@' and '+', not
/// starting with '.', at most 128 bytes. The configuration allows fewer, so every configured profile qualifies.
enum ProfileFileName {
    static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128, !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "._-@+".unicodeScalars.contains(scalar))
        }
    }

    static let rule = "letters, digits, '.', '_', '-', '@' and '+'; not starting with '.'"
}
