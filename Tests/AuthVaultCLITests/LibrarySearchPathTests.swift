import Foundation
import TestSupport
import Testing

/// The binary loads its libraries from the system's search path only: it carries no RUNPATH or RPATH naming its own
/// directory (`$ORIGIN`, which SwiftPM adds unless built with `--disable-local-rpath`, as the Makefile builds) or a
/// build directory, so a library planted beside it (libkeyutils linked at start; libcrypto, libcurl and libsecret,
/// which the loaders open by soname on first use) is never loaded.
@Suite(.enabled(if: (try? ProcessRunner.which("readelf")) != nil, "needs readelf (binutils)"))
struct LibrarySearchPathTests {
    /// The libraries the binary needs or opens, by the sonames it asks for.
    static let sonames = ["libkeyutils.so.1", "libcrypto.so.3", "libcurl.so.4", "libsecret-1.so.0"]

    /// The RPATH and RUNPATH entries of the ELF file at `path`.
    static func searchPath(of path: String) throws -> [String] {
        let output = try ProcessRunner.run(try ProcessRunner.which("readelf"), ["-d", path])
        #expect(output.status == 0, "\(output.stderrText)")
        return output.stdoutText.split(separator: "\n").filter { $0.contains("(RPATH)") || $0.contains("(RUNPATH)") }
            .flatMap { line in
                guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else {
                    return [String]()
                }
                return line[line.index(after: open)..<close].split(separator: ":").map(String.init)
            }
    }

    /// The version nodes (`readelf -V`) the ELF file at `path` needs of each library it links.
    static func versionNodes(of path: String) throws -> [String: [String]] {
        let output = try ProcessRunner.run(try ProcessRunner.which("readelf"), ["-V", path])
        var nodes: [String: [String]] = [:]
        var library: String?
        for line in output.stdoutText.split(separator: "\n") {
            let words = line.split(separator: " ")
            if let file = words.firstIndex(of: "File:"), file + 1 < words.count {
                library = String(words[file + 1])
            } else if let name = words.firstIndex(of: "Name:"), name + 1 < words.count, let library {
                nodes[library, default: []].append(String(words[name + 1]))
            }
        }
        return nodes
    }

    @Test func theBinaryNamesNeitherItsOwnDirectoryNorABuildDirectory() throws {
        var binaries = [BuiltProducts.executable("authvault")]
        let release = PackageFiles.path(".build/release/authvault")
        if FileManager.default.fileExists(atPath: release) { binaries.append(release) }
        let packageRoot = PackageFiles.root
        for binary in binaries {
            for entry in try Self.searchPath(of: binary) {
                let unsafe =
                    entry.contains("ORIGIN") || !entry.hasPrefix("/") || entry.contains("/.build")
                    || entry.hasPrefix(packageRoot) || entry.hasPrefix(BuiltProducts.directory)
                #expect(
                    !unsafe,
                    "\(binary) searches \(entry) for libraries: build it with --disable-local-rpath (the Makefile does)"
                )
            }
        }
    }

    /// A copy of the binary in a directory of its own, with a library planted beside it, one name at a time, whose
    /// constructor leaves a mark and ends the process: commands that link, open and use each library (libsecret
    /// and libcrypto by `configure` and `vault status`, libcurl by a discovery fetch) run as usual and leave no mark.
    /// Asked to search that directory (LD_LIBRARY_PATH), the same commands do load each plant: it would be seen.
    @Test func aLibraryPlantedBesideTheBinaryIsNeverLoaded() async throws {
        let directory = try TemporaryDirectory(prefix: "authvault-planted")
        let bin = directory.appending("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        let binary = bin + "/authvault"
        try FileManager.default.copyItem(atPath: BuiltProducts.executable("authvault"), toPath: binary)
        let plants = try Self.buildPlants(in: directory.appending("plants"), for: binary)
        let marker = directory.appending("loaded")
        for soname in Self.sonames {
            let planted = bin + "/" + soname
            try FileManager.default.copyItem(atPath: plants + "/" + soname, toPath: planted)
            let quiet = try runCommands(binary, home: directory.appending("home-\(soname)"), marker: marker)
            #expect(quiet.isEmpty, "\(soname) planted beside the binary was loaded: \(quiet)")
            let searched = try runCommands(
                binary, home: directory.appending("searched-\(soname)"), marker: marker, searching: bin)
            #expect(
                searched.contains(soname),
                "no command loaded \(soname) even when told to search its directory: \(searched)")
            try FileManager.default.removeItem(atPath: planted)
        }
    }

    /// A library for each soname whose constructor appends its name to `$PLANTED_MARKER` and exits 97, with the
    /// symbol versions the binary asks of a linked library (so the dynamic loader would take it). Returns where.
    static func buildPlants(in directory: String, for binary: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let source = directory + "/planted.c"
        try """
        #include <fcntl.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        __attribute__((constructor)) static void planted(void) {
            const char *marker = getenv("PLANTED_MARKER");
            int fd = marker ? open(marker, O_WRONLY | O_CREAT | O_APPEND, 0600) : -1;
            if (fd >= 0) { write(fd, SONAME "\\n", strlen(SONAME) + 1); close(fd); }
            _exit(97);
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = try (try? ProcessRunner.which("clang")) ?? ProcessRunner.which("cc")
        let versions = try versionNodes(of: binary)
        for soname in sonames {
            var versionScript: [String] = []
            if let nodes = versions[soname] {
                let script = directory + "/" + soname + ".map"
                try nodes.map { "\($0) { };\n" }.joined().write(toFile: script, atomically: true, encoding: .utf8)
                versionScript = ["-Wl,--version-script,\(script)"]
            }
            let built = try ProcessRunner.run(
                compiler,
                ["-shared", "-fPIC", "-DSONAME=\"\(soname)\"", "-Wl,-soname,\(soname)"]
                    + versionScript + ["-o", directory + "/" + soname, source])
            #expect(built.status == 0, "\(built.stderrText)")
        }
        return directory
    }

    /// Runs the commands that use every library in a fresh home; returns the marks the plants left (and clears them).
    func runCommands(_ binary: String, home: String, marker: String, searching: String? = nil) throws -> String {
        var environment = [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
            "XDG_RUNTIME_DIR": home + "/runtime", "PATH": "/usr/bin:/bin", "PLANTED_MARKER": marker,
            "AUTHVAULT_VAULT_PASSPHRASE": "planted test passphrase", "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
        ]
        environment["LD_LIBRARY_PATH"] = searching
        let commands: [(arguments: [String], stdin: String)] = [
            (["--version"], ""),
            // Probes the Secret Service (libsecret), creates the file vault for the client secret (scrypt, AES-GCM: libcrypto).
            (
                [
                    "configure", "--user-pool-id", "us-east-1_Planted1", "--client-id", "planted",
                    "--client-secret-stdin",
                ], "planted-client-secret\n"
            ),
            (["vault", "status"], ""),
            // A discovery document from a port nobody listens on: libcurl is opened, the fetch fails.
            (
                [
                    "-p", "other", "configure", "--oidc-discovery",
                    "http://127.0.0.1:9/.well-known/openid-configuration",
                ], ""
            ),
        ]
        let input = home + ".stdin"
        for command in commands {
            // Standard input from a file: a process a plant ended would not read a pipe.
            try command.stdin.write(toFile: input, atomically: true, encoding: .utf8)
            _ = try ProcessRunner.run(
                "/bin/sh", ["-c", #"exec "$0" "$@" < "$INPUT""#, binary] + command.arguments,
                environment: environment.merging(["INPUT": input]) { $1 })
        }
        defer { try? FileManager.default.removeItem(atPath: marker) }
        return (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
    }
}
