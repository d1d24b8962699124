import Foundation
import TestSupport
import Testing

/// CSecret mirrors a few GLib/libsecret types and types every dlsym'd function by its own prototype; a mismatch would
/// compile and misbehave at run time. This compiles the loader against the real headers and compares.
@Suite struct SecretServiceDeclarationTests {
    /// Never skipped: a check that skips itself where a tool is missing would let a slip pass silently.
    /// `Scripts/install-deps.sh build` installs pkg-config and libsecret-1-dev; the Swift toolchain brings clang.
    @Test func mirroredDeclarationsMatchTheRealHeaders() throws {
        let compiler = try (try? ProcessRunner.which("cc")) ?? ProcessRunner.which("clang")
        _ = try ProcessRunner.which("pkg-config")
        let script = ScriptServer.scriptPath("check_csecret_declarations.sh")
        let packageRoot = URL(fileURLWithPath: script).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let output = try ProcessRunner.run("/usr/bin/env", ["CC=\(compiler)", "/bin/sh", script, packageRoot])
        #expect(output.status == 0, "\(output.stdoutText)\(output.stderrText)")
        #expect(output.stdoutText.contains("CSecret declarations match"))
    }
}
