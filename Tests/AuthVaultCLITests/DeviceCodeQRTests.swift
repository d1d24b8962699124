import Foundation
import TestSupport
import Testing

/// `login --device`'s QR code (issue 34, item 5), against the device-grant stand-in (django-oauth-toolkit): drawn on
/// a UTF-8 terminal wide enough (beside the text, or below it where only the code fits) and decoded from the captured
/// screen by zbarimg; never with --no-qr, a locale that is not UTF-8, a narrow terminal, standard output or error a
/// pipe, or without libqrencode.
@Suite(.serialized) struct DeviceCodeQRTests {
    static let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""]
    static let cancelAtTheEnd = [(prompt: "Ctrl-C cancels.", answer: "\u{03}")]

    static let blocks: Set<Character> = ["\u{2588}", "\u{2580}", "\u{2584}"]

    static func lines(_ screen: String) -> [Substring] {
        screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The screen's lines with the QR code beside them left out: what is printed to the right of it.
    static func textLines(_ screen: String) -> [String] {
        lines(screen).map { String($0.drop { blocks.contains($0) || $0 == " " }).trimmingCharacters(in: .whitespaces) }
    }

    /// The address the screen printed on a line of its own that carries the code, else the plain one.
    static func scannedAddress(_ screen: String) -> String? {
        let lines = textLines(screen)
        let marker =
            lines.firstIndex { $0.hasPrefix("or open this address, which carries the code:") }
            ?? lines.firstIndex { $0.hasPrefix("To sign in, open this address") }
        return marker.flatMap { lines[($0 + 1)...].first { !$0.isEmpty } }
    }

    /// The screen's lines that hold both some of the code and text printed beside it.
    static func linesBesideTheCode(_ screen: String) -> [Substring] {
        lines(screen).filter { line in
            line.contains { blocks.contains($0) } && line.contains { $0.isLetter }
        }
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

    @Test func aWideUTF8TerminalShowsTheAddressAsAQRCodeBesideTheTextThatDecodesToThePrintedAddress() async throws {
        let screen = try await login()
        let address = try #require(Self.scannedAddress(screen), "\(screen)")
        #expect(try QRScreen.decode(screen) == [address], "\(screen)")
        let beside = Self.linesBesideTheCode(screen)
        for text in [
            "To sign in, open this address at", "and enter the code:", "or scan this code with a phone's camera",
        ] {
            #expect(beside.contains { $0.contains(text) }, "\(text) beside the code: \(screen)")
        }
        // The address whole, as plain text at the end of its line: nothing but the code and a gap before it.
        #expect(address.hasPrefix("http") && !address.contains(" "), "\(screen)")
        #expect(beside.contains { $0.hasSuffix("     " + address) }, "\(screen)")
    }

    /// 80 columns: wide enough for the code but not for the text beside it, so the code is drawn below the text.
    @Test func aTerminalWideEnoughForTheCodeAloneHasItBelowTheText() async throws {
        let screen = try await login(columns: 80)
        let address = try #require(Self.scannedAddress(screen), "\(screen)")
        #expect(try QRScreen.decode(screen) == [address], "\(screen)")
        #expect(Self.linesBesideTheCode(screen).isEmpty, "\(screen)")
        let scan = try #require(screen.range(of: "or scan this code with a phone's camera"), "\(screen)")
        #expect(screen[scan.upperBound...].contains("\u{2588}") && !screen[..<scan.lowerBound].contains("\u{2588}"))
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
