import AuthCrypto
import AuthVaultApp
import Testing

/// Standard input given as bytes reads as the process's does: lines one at a time, blank ones skipped, or the
/// first line of all that is left.
@Suite struct GivenInputTests {
    @Test func linesComeOneAtATimeBlankOnesSkipped() {
        let input = GivenInput("first\r\n\n\nsecond\nthird")
        #expect(input.nextLine().map(text) == "first")
        #expect(input.nextLine().map(text) == "second")
        #expect(input.nextLine().map(text) == "third")
        #expect(input.nextLine() == nil)
    }

    @Test func theFirstLineTakesAllThatIsLeft() {
        let input = GivenInput("secret\r\nmore\n")
        #expect(input.firstLine() == Array("secret".utf8))
        #expect(input.firstLine() == nil)
        #expect(GivenInput("\n").firstLine() == [])
        #expect(GivenInput("").firstLine() == nil)
    }

    private func text(_ secret: SecretBytes) -> String {
        secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
