import FuzzSupport
import TokenVault

/// The encrypted-file vault's key file: magic, version, scrypt parameters, salt and the wrapped key.
@main enum VaultKeyFileFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        _ = try? VaultKeyFile(parsing: input, location: "fuzz")
    }
}
