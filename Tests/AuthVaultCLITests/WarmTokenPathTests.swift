import Foundation
import TestSupport
import Testing

/// A warm `authvault token` on the file vault, with no agent, outside a login session (`keyctl session -`, the key
/// in the user keyring from an earlier process), as Debian's strace sees it: the configuration opened once,
/// `vault.key` and the record once each, no openssl.cnf, no thread started; once a token is kept in the keyring,
/// neither `vault.key` nor libcrypto. libcurl, when a command needs it,
/// still reads the system's TLS settings.
@Suite(
    .serialized,
    .enabled(
        if: TracingTools.present && !SanitizerOptions.areSet,
        "needs keyctl and strace; the sanitizers' runtimes start threads of their own"))
struct WarmTokenPathTests {
    let profile: CachedKeyProfile
    var trace: String { profile.root.appending("strace.out") }

    init() async throws {
        profile = try await CachedKeyProfile(
            prefix: "authvault-warm-token", passphrase: "warm path passphrase", tokenID: "warm-path")
        try await profile.configure(["--profile", "remote", "--endpoint", "https://127.0.0.1:9"])
    }

    func inNewSession(_ script: String, passphrase: String? = nil, extra: [String: String] = [:]) async throws
        -> ProcessOutput
    {
        try await profile.inNewSession(script, passphrase: passphrase, extra: extra.merging(["TRACE": trace]) { $1 })
    }

    /// The traced lines (strace -f: every thread's and child's calls).
    func traced() throws -> [Substring] {
        try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    }

    /// `keyctl` run on the kept tokens of the test's vault (`FreshTokenEntry`); answers its output.
    func kept(_ command: String) async throws -> String {
        let entry = "authvault:fresh-token:access:default:\(profile.dataDirectory)"
        return try await inNewSession(
            #"keyctl \#(command) "$(keyctl search @u user "$ENTRY")" 2>&1 || true"#, extra: ["ENTRY": entry]
        )
        .stdoutText
    }

    /// The record read at hand (the key cached, no token kept yet): each file once, and its token kept.
    @Test func aWarmTokenOpensEachFileOnceAndStartsNoThread() async throws {
        let warmUp = try await inNewSession(#""$AUTHVAULT" token >/dev/null"#, passphrase: profile.passphrase)
        #expect(warmUp.status == 0, "\(warmUp.stderrText)")
        _ = try await kept("invalidate")
        // No passphrase: only the key cached in the user keyring opens the vault.
        let run = try await inNewSession(
            #"strace -f -qq -e trace=openat,open,clone,clone3,fork,vfork -o "$TRACE" "$AUTHVAULT" token"#)
        let keptAfter = try await kept("rdescribe")
        try await profile.lock()
        #expect(run.status == 0, "\(run.stderrText)")
        expectSecret(run.stdoutText.trimmingCharacters(in: .newlines), equals: profile.token, "the warm token")
        let lines = try traced()
        func opened(_ suffix: String) -> Int { lines.count { $0.contains("open") && $0.contains(suffix + "\"") } }
        #expect(opened("/authvault/config.json") == 1, "\(lines)")
        #expect(opened("/vault.key") == 1, "\(lines)")
        #expect(opened("/default.record") == 1, "\(lines)")
        #expect(lines.contains { $0.contains("libcrypto.so.3") }, "the record is decrypted: \(lines)")
        #expect(!lines.contains { $0.contains("openssl.cnf") }, "\(lines)")
        #expect(!lines.contains { $0.contains("clone") || $0.contains("fork") }, "\(lines)")
        #expect(keptAfter.hasPrefix("user;"), "the token is kept: \(keptAfter)")
    }

    /// Once a `token` kept its fresh token in the user keyring (here the first, which derived the key), the next one
    /// serves it without the vault's key or libcrypto: the configuration opened once, the record's first bytes read
    /// once, no `vault.key`, no thread.
    @Test func aKeptTokenOpensNoKeyFileAndLoadsNoLibcrypto() async throws {
        let warmUp = try await inNewSession(#""$AUTHVAULT" token >/dev/null"#, passphrase: profile.passphrase)
        #expect(warmUp.status == 0, "\(warmUp.stderrText)")
        let run = try await inNewSession(
            #"strace -f -qq -e trace=openat,open,clone,clone3,fork,vfork -o "$TRACE" "$AUTHVAULT" token"#)
        try await profile.lock()
        #expect(run.status == 0, "\(run.stderrText)")
        expectSecret(run.stdoutText.trimmingCharacters(in: .newlines), equals: profile.token, "the kept token")
        let lines = try traced()
        func opened(_ suffix: String) -> Int { lines.count { $0.contains("open") && $0.contains(suffix + "\"") } }
        #expect(opened("/authvault/config.json") == 1, "\(lines)")
        #expect(opened("/vault.key") == 0, "\(lines)")
        #expect(opened("/default.record") <= 1, "\(lines)")
        #expect(!lines.contains { $0.contains("libcrypto.so.3") }, "libcrypto is not loaded: \(lines)")
        #expect(!lines.contains { $0.contains("clone") || $0.contains("fork") }, "\(lines)")
    }

    /// The token path reads no openssl.cnf, but a command that reaches the network through libcurl reads the one
    /// OpenSSL would (here `$OPENSSL_CONF`), after libcurl set up its TLS.
    @Test func libcurlStillReadsTheSystemsOpenSSLConfiguration() async throws {
        let configuration = profile.root.appending("openssl.cnf")
        try "openssl_conf = openssl_init\n[openssl_init]\n".write(
            toFile: configuration, atomically: true, encoding: .utf8)
        let run = try await inNewSession(
            #"printf 'a-password\n' | strace -f -qq -e trace=openat -o "$TRACE" "$AUTHVAULT" --profile remote login --password --username alice --password-stdin || true"#,
            passphrase: profile.passphrase, extra: ["OPENSSL_CONF": configuration, "AUTHVAULT_NON_INTERACTIVE": "1"])
        #expect(run.status == 0, "\(run.stderrText)")
        try await profile.lock()
        let lines = try traced()
        #expect(lines.contains { $0.contains("libcurl") }, "the command did reach libcurl: \(run.stderrText)")
        #expect(lines.contains { $0.contains(configuration) }, "\(lines)")
    }
}

private enum TracingTools {
    static let present =
        ["keyctl", "strace"].allSatisfy { (try? ProcessRunner.which($0)) != nil }
        && FileManager.default.fileExists(atPath: "/proc/keys")
}
