import FuzzCLISupport
import FuzzSupport

/// The Vault token helper's input: `VAULT_ADDR` for `get` (matched against the profiles), standard input for
/// `store`.
@main enum VaultHelperFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        HelperInvocation.run(
            ["vault-token-helper", "get"], environment: ["VAULT_ADDR": String(decoding: input, as: UTF8.self)])
        HelperInvocation.run(["vault-token-helper", "store"], standardInput: input)
    }
}
