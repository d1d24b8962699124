import Foundation
import Testing
import TestSupport

/// CSecret mirrors a few GLib/libsecret types and types every dlsym'd function by its own prototype; a mismatch would
/// compile and misbehave at run time. This compiles the loader against the real headers and compares.
@Suite struct SecretServiceDeclarationTests {
    @Test(.enabled(if: (try? ProcessRunner.which("pkg-config")) != nil && (try? ProcessRunner.which("cc")) != nil,
                   "needs pkg-config, cc and libsecret-1-dev"))
    func mirroredDeclarationsMatchTheRealHeaders() throws {
        let script = ScriptServer.scriptPath("check_csecret_declarations.sh")
        let packageRoot = URL(fileURLWithPath: script).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let output = try ProcessRunner.run("/bin/sh", [script, packageRoot])
        #expect(output.status == 0, "\(output.stdoutText)\(output.stderrText)")
        #expect(output.stdoutText.contains("CSecret declarations match"))
    }
}
