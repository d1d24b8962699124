import AuthVaultApp
import TestSupport
import Testing

/// The device sign-in's QR code: libqrencode's modules, drawn in half blocks, read back by a real decoder.
@Suite struct QRCodeTests {
    static let address = "https://id.example.com/device?user_code=WDJB-MJHT&realm=Acme%20Corp"

    @Test(arguments: [
        address, "http://127.0.0.1:8443/device", "https://id.example.com/" + String(repeating: "a/", count: 120),
    ])
    func theDrawingDecodesToTheExactAddress(address: String) throws {
        let code = try #require(QRCode.encode(address), "libqrencode4 is installed by Scripts/install-deps.sh")
        let rows = code.halfBlockRows()
        #expect(try QRScreen.decode(rows.joined(separator: "\n")) == [address])
    }

    @Test func theDrawingIsTheCodeAndItsQuietZoneTwoModuleRowsALine() throws {
        let code = try #require(QRCode.encode(Self.address))
        let rows = code.halfBlockRows()
        #expect(code.columns == code.width + 8)
        #expect(rows.count == (code.columns + 1) / 2)
        #expect(rows.allSatisfy { $0.count == code.columns })
        // The quiet zone is drawn (light modules are the ink): two full lines above, full columns left and right.
        #expect(rows.prefix(2).allSatisfy { $0.allSatisfy { $0 == "\u{2588}" } })
        #expect(
            rows.dropFirst(2).dropLast(2).allSatisfy {
                $0.hasPrefix("\u{2588}\u{2588}\u{2588}\u{2588}") && $0.hasSuffix("\u{2588}\u{2588}\u{2588}\u{2588}")
            })
    }

    @Test func eachPairOfModulesHasItsHalfBlock() {
        // A 1×1 "code" of one dark module: the cell holding it and its light neighbour below.
        let rows = QRCode(width: 1, dark: [true]).halfBlockRows()
        #expect(rows.count == 5)
        #expect(rows[2] == "\u{2588}\u{2588}\u{2588}\u{2588}\u{2584}\u{2588}\u{2588}\u{2588}\u{2588}")
        #expect(rows[4] == String(repeating: "\u{2580}", count: 9))
    }
}
