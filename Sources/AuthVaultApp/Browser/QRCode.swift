import CQRencode

/// A QR code's modules, encoded by libqrencode (opened on first use): the device sign-in's address, for a phone's
/// camera. Drawing it is `halfBlockRows()`'s.
public struct QRCode: Sendable, Equatable {
    /// Modules a side, without the quiet zone.
    public let width: Int
    /// Row by row, `width` × `width`: true for a dark module.
    public let dark: [Bool]

    public init(width: Int, dark: [Bool]) {
        precondition(width > 0 && dark.count == width * width, "a QR code is square")
        self.width = width
        self.dark = dark
    }

    /// `text` as bytes at the lowest error-correction level (the smallest code, for a screen, not paper); nil when
    /// libqrencode is not installed or the text does not fit: the caller shows the text alone.
    public static func encode(_ text: String) -> QRCode? {
        guard authvault_qrencode_load_error() == nil, !text.utf8.contains(0),
            let code = authvault_QRcode_encode_bytes(text)
        else { return nil }
        defer { authvault_QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        // Bit 0 of each byte is the module's colour; the other bits say what the module is part of.
        return QRCode(width: width, dark: (0..<width * width).map { data[$0] & 1 == 1 })
    }

    public func isDark(row: Int, column: Int) -> Bool {
        (0..<width).contains(row) && (0..<width).contains(column) && dark[row * width + column]
    }
}
