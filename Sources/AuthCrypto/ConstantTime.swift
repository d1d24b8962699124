import FoundationEssentials

/// Comparisons whose running time does not depend on where the inputs differ (MACs, tags, tokens, `state`).
public enum ConstantTime {
    /// True when both hold the same bytes. Different lengths return false at once: lengths are not secret.
    public static func equals(_ a: some DataProtocol, _ b: some DataProtocol) -> Bool {
        guard a.count == b.count else { return false }
        return a.withContiguousBytes { left in
            b.withContiguousBytes { right in SecureMemory.equals(left, right) }
        }
    }

    /// True when both strings hold the same UTF-8 bytes (a callback's `state`, a token's `nonce`).
    public static func equals(_ a: String, _ b: String) -> Bool {
        equals(Array(a.utf8), Array(b.utf8))
    }
}
