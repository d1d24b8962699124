import AuthCrypto
import Testing

@testable import TokenVault

/// The plain read takes GetSecrets' answer only when it holds every item SearchItems found unlocked: one locked in
/// between is left out of it, and the read then says nothing (nil) so that libsecret, which can unlock it, is asked;
/// never "no item", which the caller would take for "not signed in".
@Suite struct SecretServicePlainAnswerTests {
    let first = SecretBytes(utf8: "first record")
    let second = SecretBytes(utf8: "second record")

    @Test func everyAskedItemAnsweredIsReadInTheAskedOrder() {
        let answer = [("/c/2", second), ("/c/1", first)]
        #expect(SecretServicePlainLookup.secretsInOrder(answer, asked: ["/c/1", "/c/2"]) == [first, second])
    }

    @Test func anAskedItemMissingFromTheAnswerIsNoAnswer() {
        #expect(SecretServicePlainLookup.secretsInOrder([("/c/1", first)], asked: ["/c/1", "/c/2"]) == nil)
        #expect(SecretServicePlainLookup.secretsInOrder([], asked: ["/c/1"]) == nil)
        #expect(SecretServicePlainLookup.secretsInOrder([("/c/3", first)], asked: ["/c/1"]) == nil)
    }
}
