import Foundation
import TestSupport
import Testing

/// `login --device`'s QR code (issue 34, item 5), against the device-grant stand-in (django-oauth-toolkit): drawn on
/// a UTF-8 terminal wide enough and decoded from the captured screen by zbarimg; never with --no-qr, a locale that is
/// not UTF-8, a narrow terminal, standard output or error a pipe, or without libqrencode.
@Suite(.serialized) struct DeviceCodeQRTests {
    static let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""]
    static let cancelAtTheEnd = [(prompt: "Ctrl-C cancels.", answer: "\u{03}")]

    /// The address the screen printed on a line of its own that carries the code, else the plain one.
    static func scannedAddress(_ screen: String) -> String? {
        let lines = screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let marker =
            lines.firstIndex { $0.hasPrefix("or open this address, which carries the code:") }
            ?? lines.firstIndex { $0.hasPrefix("To sign in, open this address") }
        return marker.flatMap { lines[($0 + 1)...].first { !$0.isEmpty } }
    }

    func login(_ options: [String] = [], environment: [String: String] = utf8, columns: Int? = 200) async throws
        -> String
    {
        let (_, cli) = try await DeviceGrantLoginTests.deviceProfile()
        let run = try await cli.runOnTerminal(
            ["login", "--device"] + options, answers: Self.cancelAtTheEnd,
            extraEnvironment: environment, columns: columns)
        #expect(run.status == 130 && run.screen.contains("and enter the code:"), "\(run.screen)")
        return run.screen
    }

    @Test func aWideUTF8TerminalShowsTheAddressAsAQRCodeThatDecodesToThePrintedAddress() async throws {
        let screen = try await login()
        let address = try #require(Self.scannedAddress(screen), "\(screen)")
        #expect(try QRScreen.decode(screen) == [address], "\(screen)")
        #expect(screen.contains("or scan this code with a phone's camera (it opens \(address)):"), "\(screen)")
    }

    @Test func noQRCodeWithNoQRANonUTF8LocaleOrANarrowTerminal() async throws {
        let screens = [
            ("--no-qr", try await login(["--no-qr"])),
            // The terminal driver is Python, which would set LC_CTYPE=C.UTF-8 for its children under LANG=C.
            (
                "LANG=C",
                try await login(environment: ["LANG": "C", "LC_ALL": "", "LC_CTYPE": "", "PYTHONCOERCECLOCALE": "0"])
            ),
            ("LC_ALL=POSIX", try await login(environment: ["LANG": "C.UTF-8", "LC_ALL": "POSIX"])),
            ("30 columns", try await login(columns: 30)),
            ("no size", try await login(columns: nil)),
        ]
        for (terminal, screen) in screens {
            #expect(!screen.contains("\u{2588}") && !screen.contains("scan this code"), "\(terminal): \(screen)")
            #expect(try QRScreen.decode(screen).isEmpty)
            #expect(Self.scannedAddress(screen)?.hasPrefix("http") == true, "the address is still printed: \(screen)")
        }
    }

    @Test func noQRCodeGoesToAPipe() async throws {
        let (_, cli) = try await DeviceGrantLoginTests.deviceProfile()
        let environment = cli.environment.merging(Self.utf8) { $1 }
        for redirect in ["2>&1 | cat", "| cat"] {
            let session = try await OffPool.run {
                try PseudoTerminal.run(
                    ["/bin/sh", "-c", "\"$0\" login --device \(redirect)", cli.authvault],
                    answers: Self.cancelAtTheEnd, environment: environment, columns: 200)
            }
            #expect(
                session.screen.contains("and enter the code:") && !session.screen.contains("\u{2588}"),
                "\(redirect): \(session.screen)")
        }
    }

    /// A libqrencode.so.4 that lacks its functions, first on the search path: as if the library were missing.
    @Test func withoutLibqrencodeTheTextAloneAndNoError() async throws {
        let directory = try TemporaryDirectory(prefix: "authvault-noqr")
        let source = directory.appending("empty.c")
        try "int authvault_not_qrencode;\n".write(toFile: source, atomically: true, encoding: .utf8)
        let compiled = try ProcessRunner.run(
            "/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", directory.appending("libqrencode.so.4"), source])
        try #require(compiled.status == 0, "\(compiled.stderrText)")
        let screen = try await login(environment: Self.utf8.merging(["LD_LIBRARY_PATH": directory.path]) { $1 })
        #expect(!screen.contains("\u{2588}") && !screen.lowercased().contains("qrencode"), "\(screen)")
        #expect(Self.scannedAddress(screen)?.hasPrefix("http") == true, "\(screen)")
    }
}
