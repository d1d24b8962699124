import Foundation
import TestSupport
import Testing

/// Scripts/check-runpath.sh, which `make build`, `make deb` (Scripts/build-deb.sh) and `make demo` (Scripts/demo.sh)
/// run on the binary they built: it refuses a binary whose RPATH/RUNPATH names its own directory (`$ORIGIN`, what a
/// plain `swift build` adds) or a relative one, saying how to build instead, and passes the binary the tests run.
@Suite(
    .enabled(
        if: (try? ProcessRunner.which("readelf")) != nil && (try? ProcessRunner.which("cc")) != nil,
        "needs readelf (binutils) and a C compiler"))
struct RunpathCheckTests {
    static let script = PackageFiles.path("Scripts/check-runpath.sh")

    /// A tiny C program linked with the given linker options, in `directory`.
    static func program(in directory: TemporaryDirectory, named name: String, linkerOptions: [String]) throws -> String
    {
        let source = directory.appending("main.c")
        try "int main(void) { return 0; }\n".write(toFile: source, atomically: true, encoding: .utf8)
        let binary = directory.appending(name)
        let compiled = try ProcessRunner.run("cc", ["-o", binary, source] + linkerOptions)
        try #require(compiled.status == 0, "\(compiled.stderrText)")
        return binary
    }

    @Test(arguments: [
        ["-Wl,-rpath,$ORIGIN"], ["-Wl,-rpath,/usr/lib:$ORIGIN/../lib"], ["-Wl,-rpath,lib", "-Wl,--disable-new-dtags"],
    ])
    func aBinaryThatSearchesItsOwnOrARelativeDirectoryIsRefused(linkerOptions: [String]) throws {
        let directory = try TemporaryDirectory(prefix: "runpath-check")
        let binary = try Self.program(in: directory, named: "planted-path", linkerOptions: linkerOptions)
        let checked = try ProcessRunner.run(Self.script, [binary])
        #expect(checked.status == 1)
        #expect(checked.stderrText.contains("\(binary) loads libraries from"), "\(checked.stderrText)")
        #expect(
            checked.stderrText.contains("--disable-local-rpath"), "says how to build instead: \(checked.stderrText)")
    }

    @Test func theBuiltBinaryAndAProgramWithoutSearchPathPass() throws {
        let directory = try TemporaryDirectory(prefix: "runpath-check")
        let plain = try Self.program(in: directory, named: "plain", linkerOptions: [])
        for binary in [plain, BuiltProducts.executable("authvault")] {
            let checked = try ProcessRunner.run(Self.script, [binary])
            #expect(checked.status == 0, "\(binary): \(checked.stderrText)")
            #expect(checked.stderrText.isEmpty)
        }
    }

    /// `make build` runs the check after building; `make deb` and `make demo` run it in their scripts, which take the
    /// binary to package or run.
    @Test func makeBuildDebAndDemoCheckTheirBinary() throws {
        let makefile = try PackageFiles.text("Makefile")
        let build =
            makefile.components(separatedBy: "\nbuild:").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        #expect(build.contains("Scripts/check-runpath.sh"), "make build: \(build)")
        for script in ["Scripts/build-deb.sh", "Scripts/demo.sh"] {
            #expect(
                try PackageFiles.text(script).contains("\nScripts/check-runpath.sh \""), "\(script) checks its binary")
        }
    }
}
