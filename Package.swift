// swift-tools-version:6.0
// AuthVault: authentication and token vault for Amazon Cognito on Linux.
// Depends only on the Swift toolchain and Debian's C libraries (see docs/architecture.md).
import PackageDescription

let package = Package(
    name: "AuthVault",
    products: [
        // The one library product: an embedding program imports AuthVaultApp, which re-exports the types it names.
        .library(name: "AuthVaultApp", targets: ["AuthVaultApp"]),
        .executable(name: "authvault", targets: ["authvault"]),
        .executable(name: "authvault-library-example", targets: ["authvault-library-example"]),
        .executable(name: "authvault-embedding-example", targets: ["authvault-embedding-example"]),
    ],
    targets: [
        // System libraries, each with a small shim header for macros and varargs calls.
        // OpenSSL's headers only: COpenSSLLoader defines the functions AuthCrypto calls and opens libcrypto on first use.
        // (No pkgConfig: its flags would link libssl and libcrypto. The headers are in /usr/include: libssl-dev.)
        .systemLibrary(name: "COpenSSL"),
        .target(name: "COpenSSLLoader", dependencies: ["CLibraryLoader"]),
        // libcurl and libsecret are not linked: these wrappers dlopen them on first use, so a command that needs
        // neither the network nor the keyring starts without them. Build: libcurl4-openssl-dev's header; run:
        // libcurl4, libsecret-1-0 (CSecret declares the GLib/libsecret types it uses itself).
        .target(name: "CLibraryLoader"),
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        .target(name: "CSecret", dependencies: ["CLibraryLoader"]),
        // libdbus (run: libdbus-1-3), opened on first use the same way, for the Secret Service's plain read: a warm
        // token from the keyring without libsecret's GLib, threads and Diffie-Hellman session. Declarations in the shim.
        .target(name: "CDBus", dependencies: ["CLibraryLoader"]),
        // libqrencode (run: libqrencode4) for the device sign-in's QR code; its few declarations are in the shim.
        .target(name: "CQRencode", dependencies: ["CLibraryLoader"]),
        .systemLibrary(name: "CKeyutils", pkgConfig: "libkeyutils", providers: [.apt(["libkeyutils-dev"])]),
        // prctl(2) from the C library: no core dumps of a process that holds secrets.
        .systemLibrary(name: "CProcessControl"),

        // The system plumbing every blocking part shares: detached threads, a lock with a condition, EINTR-retrying
        // calls with typed errors, listening sockets. `package` access: no product exports it.
        .target(name: "SystemPlumbing"),
        // The --debug trace: one type, a line sink that builds its messages only when on.
        .target(name: "DebugTrace"),
        // Primitives: hashes, MACs, KDFs, AEAD, random, big integers, RSA verification, encodings, secret bytes.
        .target(name: "AuthCrypto", dependencies: ["COpenSSL", "COpenSSLLoader"]),
        // The one JSON value: a bounded parser and writer of our own, a secret case for tokens on their way out; it
        // escapes what ServerText escapes.
        .target(name: "BoundedJSON", dependencies: ["AuthCrypto", "NetworkHosts"]),
        // Hosts and ports parsed as addresses (inet_pton) or names: what is loopback, where plain http may go; text
        // another party sent, escaped for a terminal.
        .target(name: "NetworkHosts"),
        // The one door to the network: a request/response protocol and its libcurl implementation.
        .target(name: "HTTPTransport", dependencies: ["DebugTrace", "CCurl", "NetworkHosts", "SecureFiles", "SystemPlumbing"]),
        // Private files: atomic replace, 0600 files in 0700 directories, permission checks.
        .target(name: "SecureFiles", dependencies: ["SystemPlumbing"]),
        // The OAuth redirect listener on the loopback interface: plain sockets, a dedicated thread.
        .target(name: "Loopback", dependencies: ["AuthCrypto", "NetworkHosts", "SystemPlumbing"]),
        // JWT decoding, RS256 verification by kid, Cognito claim checks, the JWKS cache.
        .target(name: "TokenVerification", dependencies: ["AuthCrypto", "BoundedJSON", "HTTPTransport", "NetworkHosts"]),
        // The user-pool API client: SRP, challenges, account operations, errors and retries; the Hosted UI flow.
        .target(name: "CognitoAuth", dependencies: ["AuthCrypto", "BoundedJSON", "HTTPTransport", "NetworkHosts", "SystemPlumbing", "TokenVerification"]),
        // Credential records and where they live: Secret Service, encrypted file, memory; the per-profile lock.
        .target(name: "TokenVault", dependencies: ["DebugTrace", "AuthCrypto", "BoundedJSON", "SecureFiles", "CSecret", "CDBus", "CKeyutils", "SystemPlumbing"]),
        // One actor per profile owning its tokens: the state machine, refresh windows, single flight, sign-out.
        .target(name: "AuthStore", dependencies: ["DebugTrace", "SystemPlumbing", "AuthCrypto", "CognitoAuth", "TokenVault", "TokenVerification"]),
        .target(name: "AuthAgent", dependencies: ["AuthStore", "AuthCrypto", "BoundedJSON", "CognitoAuth", "HTTPTransport", "SecureFiles", "SystemPlumbing", "TokenVault", "TokenVerification"]),
        // The application: the profile configuration, choosing and building vaults, a profile's store, the agent-first
        // token, the browser sign-in's flow; the environment, standard input, a prompter and a browser passed in.
        .target(name: "AuthVaultApp", dependencies: ["SystemPlumbing", "DebugTrace", "AuthAgent", "AuthCrypto", "AuthStore", "BoundedJSON", "CognitoAuth", "CQRencode", "HTTPTransport", "Loopback", "NetworkHosts", "SecureFiles", "TokenVault", "TokenVerification"]),
        // The command line, a thin adapter over the application: argument parsing, commands, help, output, exit statuses.
        // It reaches the domain through AuthVaultApp alone (the one door); besides, only plumbing and its C shim.
        .target(name: "AuthVaultCLI", dependencies: ["AuthVaultApp", "SystemPlumbing", "DebugTrace", "BoundedJSON", "CProcessControl"]),
        // The Swift toolchain links a static-stdlib executable with --export-dynamic, which put our 4,864 Swift
        // symbols in the dynamic symbol table: every start-up's relocations and every dlopen'd library's symbol
        // look-ups searched it, and the runtime's dladdr at start scanned it (0.18 M instructions of --version's 3.1 M).
        // Nothing looks our symbols up by name, so none is exported.
        // Linked by lld with packed relative relocations (DT_RELR, glibc 2.36+): the default linker wrote 44,300
        // 24-byte RELA entries (1 MB) that every start read and applied; RELR keeps them in 9 KB of bitmaps, which cut
        // --version by 0.19 M instructions (2.92 M -> 2.74 M) and 1 MB of resident memory.
        // The functions start-up, a warm `token` and the helpers run are laid out together (startup.order, made by
        // Scripts/update-symbol-order.sh; the Makefile's release builds emit a section per function): the kernel
        // maps code 64 KB around each page a process touches, and those functions were spread over 15 MB of text.
        // The functions without a symbol, which the list cannot name, lie together before the rest
        // (private-functions.ld).
        .executableTarget(
            name: "authvault", dependencies: ["AuthVaultCLI"], exclude: ["startup.order", "private-functions.ld"],
            linkerSettings: [
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/authvault/startup.order",
                    "-Xlinker", "--no-warn-symbol-ordering",
                    "-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/Sources/authvault/private-functions.ld",
                ])
            ]),

        // The benchmark harness behind `make bench` (release builds; peers measured in the same run).
        .executableTarget(name: "authvault-bench", dependencies: ["SystemPlumbing", "AuthAgent", "AuthCrypto", "AuthStore", "CognitoAuth", "HTTPTransport", "Loopback", "TokenVault", "TokenVerification"], path: "Benchmarks/AuthVaultBench"),
        // The benchmark's start-up yardstick: a Swift program that imports Foundation and prints a line, same flags.
        .executableTarget(name: "authvault-yardstick", path: "Benchmarks/Yardstick"),
        // The libraries as an application uses them: a configured profile, opened by name, an authorized HTTP API call.
        .executableTarget(name: "authvault-library-example",
                          dependencies: ["AuthVaultApp"],
                          path: "Examples/LibraryClient", exclude: ["README.md"]),
        // A program with a session of its own: the pool and the vault in code, no configuration file, no environment.
        .executableTarget(name: "authvault-embedding-example",
                          dependencies: ["AuthVaultApp"], path: "Examples/Embedding"),

        // Shared test support: temporary directories, running processes, TLS fixtures made with the openssl CLI.
        .target(name: "TestSupport", dependencies: ["SystemPlumbing"], path: "Tests/TestSupport", exclude: ["Scripts"]),
        .testTarget(name: "AuthCryptoTests", dependencies: ["AuthCrypto", "COpenSSL", "TestSupport"]),
        .testTarget(name: "BoundedJSONTests", dependencies: ["BoundedJSON", "AuthCrypto"]),
        .testTarget(name: "NetworkHostsTests", dependencies: ["NetworkHosts"]),
        .testTarget(name: "SystemPlumbingTests", dependencies: ["SystemPlumbing"]),
        .testTarget(name: "HTTPTransportTests", dependencies: ["HTTPTransport", "TestSupport"]),
        .testTarget(name: "TokenVerificationTests", dependencies: ["SystemPlumbing", "TokenVerification", "AuthCrypto", "BoundedJSON", "HTTPTransport", "TestSupport"]),
        .testTarget(name: "CognitoAuthTests", dependencies: ["CognitoAuth", "NetworkHosts", "SystemPlumbing", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TokenVaultTests", dependencies: ["TokenVault", "AuthCrypto", "CDBus", "CKeyutils", "SystemPlumbing", "TestSupport"]),
        // One vault operation per process, for the TokenVault tests (libsecret caches its bus connection per process).
        .executableTarget(name: "vault-probe", dependencies: ["TokenVault", "AuthCrypto", "SystemPlumbing"], path: "Tests/VaultProbe"),
        .testTarget(name: "AuthStoreTests", dependencies: ["SystemPlumbing", "AuthStore", "AuthCrypto", "CognitoAuth", "HTTPTransport", "TokenVault", "TokenVerification", "TestSupport"]),
        .testTarget(name: "AuthAgentTests", dependencies: ["SystemPlumbing", "AuthAgent", "AuthStore", "AuthCrypto", "CognitoAuth", "TokenVault", "TestSupport"]),
        .testTarget(name: "SecureFilesTests", dependencies: ["SecureFiles", "TestSupport"]),
        .testTarget(name: "LoopbackTests", dependencies: ["Loopback", "TestSupport"]),
        .testTarget(name: "DebugTraceTests", dependencies: ["SystemPlumbing", "DebugTrace"]),
        .testTarget(name: "AuthVaultAppTests", dependencies: ["SystemPlumbing", "AuthVaultApp", "AuthAgent", "AuthCrypto", "AuthStore", "CognitoAuth", "HTTPTransport", "TokenVault", "TestSupport"]),
        .testTarget(name: "AuthVaultCLITests", dependencies: ["SystemPlumbing", "AuthVaultCLI", "AuthVaultApp", "CProcessControl", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer targets (Fuzz/, one per parser): declared only when Scripts/fuzz.sh builds them, so `swift build`
// and the tests never compile them.
if Context.environment["AUTHVAULT_FUZZ"] != nil {
    let parsers: [(name: String, dependencies: [Target.Dependency])] = [
        ("fuzz-jwt", ["TokenVerification"]),
        ("fuzz-jwt-verifier", ["TokenVerification"]),
        ("fuzz-jwks", ["TokenVerification"]),
        ("fuzz-cognito-response", ["AuthCrypto", "CognitoAuth"]),
        ("fuzz-oauth-response", ["AuthCrypto", "CognitoAuth"]),
        ("fuzz-discovery", ["CognitoAuth"]),
        ("fuzz-device-authorization", ["CognitoAuth"]),
        ("fuzz-loopback-request", ["Loopback"]),
        ("fuzz-agent-request", ["AuthAgent"]),
        ("fuzz-agent-reply", ["AuthAgent"]),
        ("fuzz-config", ["AuthVaultApp"]),
        ("fuzz-vault-record", ["AuthCrypto", "TokenVault"]),
        ("fuzz-vault-key-file", ["TokenVault"]),
        ("fuzz-git-credential", ["FuzzCLISupport"]),
        ("fuzz-docker-helper", ["FuzzCLISupport"]),
        ("fuzz-vault-helper", ["FuzzCLISupport"]),
        ("fuzz-kubectl-exec-info", ["FuzzCLISupport"]),
    ]
    package.targets += [
        .systemLibrary(name: "CFuzzSupport", path: "Fuzz/CFuzzSupport"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzSupport", "AuthCrypto", "CognitoAuth", "HTTPTransport", "TokenVerification"],
                path: "Fuzz/FuzzSupport"),
        .target(name: "FuzzCLISupport", dependencies: ["AuthVaultCLI", "CFuzzSupport", "FuzzSupport"], path: "Fuzz/FuzzCLISupport"),
    ] + parsers.map { .executableTarget(name: $0.name, dependencies: ["FuzzSupport"] + $0.dependencies, path: "Fuzz/Targets/\($0.name)") }
}
