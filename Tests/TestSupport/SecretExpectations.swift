// Only where Swift Testing is: a packager's `swift build -c release --static-swift-stdlib` of the whole package
// builds this target too, and the toolchain has no static Testing module.
#if canImport(Testing)
    import Foundation
    import Testing

    // Expectations about secrets (tokens, refresh tokens, AWS keys, client secrets, passwords). A failed `#expect` prints
    // the values of its operands and of the arguments of a call inside it, `sameSecret(a, b)` included, so a check written
    // there shows the token and the text it was looked for in. These check outside the macro and record an issue that
    // tells what was wrong by lengths only, with the caller's comment; the issue points at the caller's line.

    /// `text` holds `secret`.
    public func expectSecret(
        _ secret: String, in text: String, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard !text.contains(secret) else { return }
        record(
            "the text (\(text.count) characters) does not hold the secret (\(secret.count) characters)", comment,
            sourceLocation)
    }

    /// `text` is `secret`; a nil on either side fails.
    public func expectSecret(
        _ secret: String?, equals text: String?, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard !sameSecret(secret, text) else { return }
        guard let secret, let text else {
            record(
                secret == nil ? "there is no secret to compare (nil)" : "there is no text to compare (nil)", comment,
                sourceLocation)
            return
        }
        // Whether the text holds the secret tells a stray newline or prefix from another value; it shows neither.
        let holds = text.contains(secret) ? ", though it holds it" : ""
        record(
            "the text (\(text.count) characters) is not the secret (\(secret.count) characters)\(holds)", comment,
            sourceLocation)
    }

    /// `secret` is not `other`: another value, or none (as `!sameSecret(secret, other)`).
    public func expectSecret(
        _ secret: String?, differsFrom other: String?, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard sameSecret(secret, other), let secret else { return }
        record("the two secrets are the same (\(secret.count) characters)", comment, sourceLocation)
    }

    /// None of `secrets` appears in `text` in any form (`SecretScan.holds`); each one found is told by its position in `secrets`.
    public func expectNoSecrets(
        in text: String, _ secrets: [String], _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (index, secret) in secrets.enumerated() where SecretScan.holds(text, secret) {
            record(
                "secret #\(index + 1) of \(secrets.count) (\(secret.count) characters) appears in the text (\(text.count) characters)",
                comment, sourceLocation)
        }
    }

    /// Whether two secret values are present and equal. Use it outside `#expect` (or through `expectSecret(_:equals:)`):
    /// inside, the macro prints both arguments when it fails.
    public func sameSecret(_ first: String?, _ second: String?) -> Bool {
        first != nil && first == second
    }

    private func record(_ fact: String, _ comment: Comment?, _ sourceLocation: SourceLocation) {
        Issue.record(
            Comment(rawValue: comment.map { "\(fact): \($0.rawValue)" } ?? fact), sourceLocation: sourceLocation)
    }
#endif
