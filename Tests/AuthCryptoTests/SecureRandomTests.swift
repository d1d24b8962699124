import AuthCrypto
import Testing

@Suite struct SecureRandomTests {
    @Test func countsAndFreshness() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        #expect(SecureRandom.bytes(count: 33).count == 33)
        #expect(SecureRandom.secretBytes(count: 32).count == 32)
        // 2^-256 chance of a false failure.
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
        #expect(SecureRandom.secretBytes(count: 32) != SecureRandom.secretBytes(count: 32))
    }
}
