import AuthCrypto
import Foundation
import Testing

@Suite struct SHA256Tests {
    // FIPS 180-2 appendix B.1 and B.2 (one-block and two-block messages).
    @Test func fipsVectors() {
        #expect(
            hex(SHA256.hash(data: utf8("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(SHA256.hash(data: utf8("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    // The well-known digest of the empty string (`printf '' | openssl dgst -sha256`).
    @Test func emptyInput() {
        #expect(hex(SHA256.hash(data: [UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func dataAndSlicesHashLikeArrays() {
        let message = utf8("xxabcxx")
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(hex(SHA256.hash(data: message[2..<5])) == expected)
        #expect(hex(SHA256.hash(data: Data(message[2..<5]))) == expected)
    }

    @Test func multiRegionData() {
        // DispatchData with two regions: hashed region by region.
        var data = DispatchData.empty
        for part in ["abcdbcdecdefdefgefghfghighijhijk", "ijkljklmklmnlmnomnopnopq"] {
            part.utf8CString.dropLast().map { UInt8(bitPattern: $0) }.withUnsafeBytes { data.append($0) }
        }
        #expect(data.regions.count == 2)
        #expect(hex(SHA256.hash(data: data)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
