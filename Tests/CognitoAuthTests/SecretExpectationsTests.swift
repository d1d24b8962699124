import SystemPlumbing
import TestSupport
import Testing

/// The secret expectations of TestSupport (SecretExpectations.swift; this target is their oldest user): a failed check
/// records one issue, at the caller's line, that holds the caller's comment but neither the secret nor the text; a
/// passing check records none.
@Suite struct SecretExpectationsTests {
    static let secret = "eyJ.the-secret-claims.sig"
    static let other = "eyJ.another-token.sig"
    static let text = "protocol=https\npassword=eyJ.the-secret-claims.sig\n"

    /// What the matcher of `withKnownIssue` saw; it runs in a `@Sendable` closure, so a class holds the lock.
    final class Recorded: Sendable {
        let issues = Locked<[(text: String, line: Int?)]>([])
    }

    /// The issues `body` records, as known issues (so they fail nothing here): the issue's description and comments, and
    /// its line. `withKnownIssue` itself fails the test when `body` records none.
    func issues(_ body: () -> Void) -> [(text: String, line: Int?)] {
        let recorded = Recorded()
        withKnownIssue {
            body()
        } matching: { issue in
            recorded.issues.withLock {
                $0.append(("\(issue) \(issue.comments.map(\.rawValue))", issue.sourceLocation?.line))
            }
            return true
        }
        return recorded.issues.withLock { $0 }
    }

    /// One issue at `line` that says `comment` and names no secret and not the text. Computed apart from `#expect`,
    /// which would print a failed `contains` with its operands.
    func expectRedacted(
        _ found: [(text: String, line: Int?)], line: Int, comment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let shown = found.map(\.text).joined(separator: "\n")
        let named = [Self.secret, Self.other, Self.text].filter { shown.contains($0) }.count
        let commented = shown.contains(comment)
        #expect(found.count == 1, sourceLocation: sourceLocation)
        #expect(named == 0, "the issue names a secret or the text", sourceLocation: sourceLocation)
        #expect(commented, "the caller's comment", sourceLocation: sourceLocation)
        #expect(found.map(\.line) == [line], "the caller's line", sourceLocation: sourceLocation)
    }

    @Test func aSecretMissingFromTheText() {
        let (found, line) = (issues { expectSecret(Self.other, in: Self.text, "the answer") }, #line)
        expectRedacted(found, line: line, comment: "the answer")
    }

    @Test func aTextThatIsNotTheSecret() {
        let (found, line) = (issues { expectSecret(Self.secret, equals: Self.text, "bare") }, #line)
        expectRedacted(found, line: line, comment: "bare")
        let (none, noneLine) = (issues { expectSecret(nil, equals: Self.text, "nil") }, #line)
        expectRedacted(none, line: noneLine, comment: "nil")
    }

    @Test func twoSecretsThatShouldDifferButAreTheSame() {
        let (found, line) = (issues { expectSecret(Self.secret, differsFrom: Self.secret, "rotated") }, #line)
        expectRedacted(found, line: line, comment: "rotated")
    }

    @Test func aSecretInTheText() {
        let (found, line) = (issues { expectNoSecrets(in: Self.text, [Self.other, Self.secret], "stderr") }, #line)
        expectRedacted(found, line: line, comment: "stderr")
    }

    @Test func passingChecksRecordNothing() {
        expectSecret(Self.secret, in: Self.text)
        expectSecret(Self.secret, equals: String(Self.secret))
        expectSecret(Self.secret, differsFrom: Self.other)
        expectSecret(nil, differsFrom: Self.secret)
        expectNoSecrets(in: Self.text, [Self.other, ""])
    }
}
