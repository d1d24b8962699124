import SecureFiles

#if canImport(Glibc)
    internal import Glibc
#endif

/// The HashiCorp Vault CLI's `token_helper` in its configuration (`$VAULT_CONFIG_PATH`, else ~/.vault). Vault runs
/// the helper by path with no arguments of ours, so it is the `vault-token-helper-authvault` link that
/// `make install` puts beside the binary.
struct VaultSetup {
    static let key = "token_helper"
    static let helperName = "vault-token-helper-authvault"
    let site: SetupSite

    var helper: String { FilePath.join(FilePath.parent(of: site.executable), Self.helperName) }
    /// An HCL string.
    var value: String { "\"" + helper.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }

    func plan(undo: Bool, restoring: [String]?) throws(SetupError) -> SetupPlan {
        guard undo || access(helper, X_OK) == 0 else { throw .helperLinkMissing(path: helper) }
        return try SettingLines.plan(
            .vault, path: site.file("VAULT_CONFIG_PATH", orHome: ".vault"), key: Self.key, value: value,
            in: nil, undo: undo, restoring: restoring)
    }
}
