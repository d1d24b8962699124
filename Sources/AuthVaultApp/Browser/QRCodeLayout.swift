/// A QR code's drawing and the text it goes with, as the lines of a terminal `columns` wide: the code beside the
/// text where both fit (its rows on the left, the text from its first row on, to the right), else below the text
/// where the code alone fits, else the text alone. A text line is never cut or wrapped: an address stays whole, as
/// plain text on a line of its own, to copy.
public enum QRCodeLayout {
    /// Blank columns between the code and the text (the code's quiet zone is drawn, so this is only for the eye).
    public static let gap = 3

    /// - Parameter caption: the lines that point at the code, shown only with it (after the text).
    public static func lines(text: [String], caption: [String], drawing: [String], columns: Int) -> [String] {
        let drawingColumns = drawing.map(\.count).max() ?? 0
        guard !drawing.isEmpty, drawingColumns <= columns else { return text }
        let explained = text + [""] + caption
        guard drawingColumns + gap + (explained.map(\.count).max() ?? 0) <= columns else {
            return explained + [""] + drawing
        }
        let blank = String(repeating: " ", count: drawingColumns)
        return (0..<max(drawing.count, explained.count)).map { index in
            let row = index < drawing.count ? drawing[index] : blank
            let line = index < explained.count ? explained[index] : ""
            guard !line.isEmpty else { return index < drawing.count ? row : "" }
            return row + String(repeating: " ", count: drawingColumns - row.count + gap) + line
        }
    }
}
