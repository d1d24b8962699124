#if canImport(Glibc)
internal import Glibc
#endif
import SecureFiles

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

    func plan(undo: Bool) throws(SetupError) -> SetupPlan {
        let path = site.file("VAULT_CONFIG_PATH", orHome: ".vault")
        let file = try ToolFile.read(path)
        var lines = SettingLines(file.text)
        let current = lines.value(of: Self.key, in: nil)
        let change: String
        if undo {
            guard current == value else { return SetupPlan(tool: .vault, target: path, changes: [], edit: .none) }
            lines.remove(Self.key, in: nil)
            change = "remove \(Self.key) = \(value)"
        } else {
            guard access(helper, X_OK) == 0 else { throw .helperLinkMissing(path: helper) }
            lines.set(Self.key, to: value, in: nil)
            change = "\(Self.key) = \(value)" + (current.map { $0 == value ? "" : " (was \($0))" } ?? "")
        }
        return SetupPlan(tool: .vault, target: path, changes: [change], edit: file.replacement(Array(lines.text.utf8)))
    }
}
