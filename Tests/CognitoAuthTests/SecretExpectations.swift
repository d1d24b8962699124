import Testing

/// Fails the test when any of `secrets` (passwords, codes, tokens, sessions) appears in `text`.
func expectNoSecrets(in text: String, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in secrets where !secret.isEmpty {
        #expect(!text.contains(secret), "a secret appears in: \(text.replacingOccurrences(of: secret, with: "<SECRET>"))",
                sourceLocation: sourceLocation)
    }
}
