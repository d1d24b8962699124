import Foundation
import TestSupport
import Testing

/// CSecret and CDBus mirror a few GLib/libsecret and libdbus types and type every dlsym'd function by its own
/// prototype; a mismatch would compile and misbehave at run time. This compiles each loader against the real headers
/// and compares.
@Suite struct SecretServiceDeclarationTests {
    /// Never skipped: a check that skips itself where a tool is missing would let a slip pass silently.
    /// `Scripts/install-deps.sh build` installs pkg-config, libsecret-1-dev and libdbus-1-dev; the Swift toolchain
    /// brings clang.
    func check(_ target: String) throws -> ProcessOutput {
        let compiler = try (try? ProcessRunner.which("cc")) ?? ProcessRunner.which("clang")
        _ = try ProcessRunner.which("pkg-config")
        let script = ScriptServer.scriptPath("check_mirrored_declarations.sh")
        let packageRoot = URL(fileURLWithPath: script).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        return try ProcessRunner.run("/usr/bin/env", ["CC=\(compiler)", "/bin/sh", script, target, packageRoot])
    }

    @Test func mirroredDeclarationsMatchTheRealHeaders() throws {
        let output = try check("CSecret")
        #expect(output.status == 0, "\(output.stdoutText)\(output.stderrText)")
        #expect(output.stdoutText.contains("CSecret declarations match"))
    }

    @Test func mirroredLibdbusDeclarationsMatchTheRealHeaders() throws {
        let output = try check("CDBus")
        #expect(output.status == 0, "\(output.stdoutText)\(output.stderrText)")
        #expect(output.stdoutText.contains("CDBus declarations match"))
    }
}
