import AuthVaultApp
import TestSupport
import Testing

/// The device sign-in's QR code and its text on a terminal of a given width (issue 34, item 5): beside the text where
/// both fit, below it where the code alone fits, the text alone where not even the code fits; a text line is never
/// cut, so an address stays whole on a line of its own.
@Suite struct QRCodeLayoutTests {
    static let address = "https://id.example.com/device?user_code=WDJB-MJHT"
    static let text = ["Open this address:", "", "  \(address)", "", "and enter the code:  WDJB-MJHT"]
    static let caption = ["or scan this code."]
    /// A 3-column, 4-row stand-in for a drawing.
    static let drawing = ["###", "#.#", "#.#", "###"]

    static var textColumns: Int { (text + caption).map(\.count).max()! }

    static func lines(columns: Int, text: [String] = text) -> [String] {
        QRCodeLayout.lines(text: text, caption: caption, drawing: drawing, columns: columns)
    }

    @Test func aWideTerminalHasTheCodeOnTheLeftAndTheTextBesideItFromTheFirstRow() {
        let lines = Self.lines(columns: 3 + QRCodeLayout.gap + Self.textColumns)
        let pad = String(repeating: " ", count: QRCodeLayout.gap)
        #expect(
            lines == [
                "###" + pad + "Open this address:", "#.#", "#.#" + pad + "  \(Self.address)", "###",
                "   " + pad + "and enter the code:  WDJB-MJHT", "", "   " + pad + "or scan this code.",
            ])
    }

    @Test func aTextShorterThanTheCodeLeavesTheCodesLastRowsAlone() {
        let lines = Self.lines(columns: 200, text: ["Open it."])
        #expect(lines == ["###   Open it.", "#.#", "#.#   or scan this code.", "###"])
    }

    @Test func aTerminalWideEnoughForTheCodeButNotBothHasTheCodeBelowTheText() {
        for columns in [3, 3 + QRCodeLayout.gap + Self.textColumns - 1] {
            #expect(Self.lines(columns: columns) == Self.text + [""] + Self.caption + [""] + Self.drawing)
        }
    }

    @Test func aTerminalNarrowerThanTheCodeHasTheTextAloneWithoutTheCaption() {
        #expect(Self.lines(columns: 2) == Self.text)
        #expect(QRCodeLayout.lines(text: Self.text, caption: Self.caption, drawing: [], columns: 200) == Self.text)
    }

    /// A real code beside the text: what a phone reads from the screen is the address, printed whole beside it.
    @Test func aRealCodeBesideTheTextStillDecodes() throws {
        let code = try #require(QRCode.encode(Self.address), "libqrencode4 is installed by Scripts/install-deps.sh")
        let lines = QRCodeLayout.lines(
            text: Self.text, caption: Self.caption, drawing: code.halfBlockRows(), columns: 120)
        #expect(lines.count == code.halfBlockRows().count)
        #expect(lines.contains { $0.hasSuffix(String(repeating: " ", count: QRCodeLayout.gap + 2) + Self.address) })
        #expect(try QRScreen.decode(lines.joined(separator: "\n")) == [Self.address])
    }
}
