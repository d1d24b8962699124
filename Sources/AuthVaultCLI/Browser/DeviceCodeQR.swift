import AuthVaultApp

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the device sign-in's address is drawn as a QR code, and where: only for a person at a terminal that can
/// show it whole. Never into a pipe or a file (standard output or error not a terminal), never where the locale is
/// not UTF-8 (the half blocks would be garbage), never narrower than the code with its quiet zone (a wrapped code
/// does not scan), and never without libqrencode (the text alone, no error). Beside the text where the terminal is
/// wide enough for both, else below it (`QRCodeLayout`).
struct DeviceCodeQR {
    let enabled: Bool
    let environment: [String: String]
    /// Where the code is drawn: standard error (2), with standard output a terminal too; or the controlling terminal
    /// a helper's sign-in writes to, whatever its standard streams are (the tool's protocol).
    var descriptor: Int32 = 2

    /// `text`, with `uri` drawn beside or below it (after `caption`) where it can be; else `text` alone.
    func lines(_ text: [String], caption: [String], drawing uri: String) -> [String] {
        guard enabled, descriptor != 2 || isatty(1) == 1, isatty(descriptor) == 1, Self.isUTF8(environment),
            let columns = Self.terminalColumns(of: descriptor), let code = QRCode.encode(uri)
        else { return text }
        return QRCodeLayout.lines(text: text, caption: caption, drawing: code.halfBlockRows(), columns: columns)
    }

    /// The character set as the C library would choose it: the first of LC_ALL, LC_CTYPE and LANG that is set.
    static func isUTF8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let codeset = locale.split(separator: ".").dropFirst().first?.split(separator: "@").first?.lowercased() ?? ""
        return codeset == "utf-8" || codeset == "utf8"
    }

    /// The width of the terminal the code is drawn on; nil when it says none.
    private static func terminalColumns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
