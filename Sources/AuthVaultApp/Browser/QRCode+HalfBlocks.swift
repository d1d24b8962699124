extension QRCode {
    /// The light border decoders need around a code, in modules (the standard's minimum).
    public static let quietZone = 4

    /// Terminal columns the drawing takes: the code and its quiet zone on both sides.
    public var columns: Int { width + 2 * Self.quietZone }

    /// The code as text, two module rows to a line, quiet zone included. The light modules are the drawn ones (full
    /// and half blocks) and the dark ones are spaces: on the usual terminal, light text on a dark background, the
    /// code then reads dark-on-light as cameras expect, and the quiet zone is drawn rather than assumed (a dark
    /// background is no quiet zone). The same choice as `qrencode -t UTF8`.
    public func halfBlockRows() -> [String] {
        let side = columns
        let origin = Self.quietZone
        let light = { (row: Int, column: Int) in !isDark(row: row - origin, column: column - origin) }
        return stride(from: 0, to: side, by: 2).map { top in
            String(
                (0..<side).map { column -> Character in
                    let upper = light(top, column)
                    let lower = top + 1 < side && light(top + 1, column)
                    switch (upper, lower) {
                    case (true, true): return "\u{2588}"
                    case (true, false): return "\u{2580}"
                    case (false, true): return "\u{2584}"
                    case (false, false): return " "
                    }
                })
        }
    }
}
