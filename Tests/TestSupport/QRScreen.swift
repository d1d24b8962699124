import Foundation

/// The QR codes a terminal showed in half blocks, decoded by a real decoder (zbarimg, through Scripts/qr_decode.py):
/// what a phone's camera would read from the screen.
public enum QRScreen {
    /// Each code's text, in the order drawn; empty when the screen holds none.
    public static func decode(_ screen: String) throws -> [String] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Scripts/qr_decode.py"
        ).path
        // Debian's python3 (with python3-pil), not the peers' virtual environment.
        let output = try ProcessRunner.run("/usr/bin/python3", [script], stdin: Data(screen.utf8), timeout: 30)
        guard output.status == 0 else { throw TestFixtureError("qr_decode.py failed: \(output.stderrText)") }
        return String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
