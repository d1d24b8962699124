import AuthCrypto
import Foundation
import Testing

@Suite struct ConstantTimeTests {
    @Test func equals() {
        #expect(ConstantTime.equals(utf8("state-123"), Data("state-123".utf8)))
        #expect(!ConstantTime.equals(utf8("state-123"), utf8("state-124")))
        #expect(!ConstantTime.equals(utf8("state"), utf8("state-123")))
        #expect(ConstantTime.equals([UInt8](), Data()))
        #expect(ConstantTime.equals("xyz", "xyz"))
        #expect(!ConstantTime.equals("xyz", "xya"))
        #expect(!ConstantTime.equals("xyz", "xy"))
        #expect(ConstantTime.equals("", ""))
    }
}
