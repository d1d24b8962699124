import AuthVaultApp
import FoundationEssentials

extension BrowserHost {
    /// The kernel's release string (WSL's says "microsoft"); nil where it cannot be read.
    static func kernelRelease() -> String? {
        (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))
    }

    /// The host of this invocation.
    static func of(_ context: CommandContext) -> BrowserHost {
        detect(context.variables, osRelease: kernelRelease())
    }
}
