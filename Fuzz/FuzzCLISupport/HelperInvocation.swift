import AuthVaultCLI
import Foundation
import FuzzSupport

/// One `authvault` invocation the way git, docker, Vault or kubectl make it, in a scratch home (under `TMPDIR`)
/// whose profile `work` lists the helpers' hosts, and `acme` the git host under path prefixes (so that git's
/// `path=` and `username=` reach the choice among profiles): nothing is signed in, no agent listens, nothing prompts. What the
/// command writes is captured and dropped; only the parsing of what the tool sends is under test.
public enum HelperInvocation {
    static let hosts = ["git.example.com", "registry.example.com", "vault.example.com", "k8s.example.com"]

    public static func run(
        _ arguments: [String], standardInput: [UInt8] = [], environment extra: [String: String] = [:]
    ) {
        StandardInputPipe.replace(with: standardInput)
        let environment = scratchEnvironment.merging(extra) { $1 }
        runBlocking {
            _ = await AuthVault.runDiscardingOutput(arguments: arguments, environment: environment)
        }
    }

    private static let scratchEnvironment: [String: String] = {
        var template = Array((NSTemporaryDirectory() + "/authvault-fuzz-XXXXXX").utf8CString)
        guard
            let home = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }
            )
        else {
            fatalError("no scratch directory under \(NSTemporaryDirectory())")
        }
        let hostList = hosts.map { "\"\($0)\"" }.joined(separator: ",")
        let config =
            #"{"version":1,"profiles":{"work":{"region":"eu-west-1","userPoolId":"eu-west-1_Fuzz","#
            + #""clientId":"fuzzclient","vault":"file","helperHosts":[\#(hostList)]},"#
            + #""acme":{"region":"eu-west-1","userPoolId":"eu-west-1_Fuzz","clientId":"fuzzclient","vault":"file","#
            + #""helperHosts":["git.example.com/acme","git.example.com/a%20b/c"]}}}"#
        let configPath = home + "/config.json"
        guard
            FileManager.default.createFile(
                atPath: configPath, contents: Data(config.utf8),
                attributes: [.posixPermissions: 0o600])
        else {
            fatalError("cannot write \(configPath)")
        }
        return [
            "HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home, "XDG_RUNTIME_DIR": home,
            "AUTHVAULT_CONFIG": configPath, "AUTHVAULT_AGENT_SOCKET": home + "/no-agent.sock",
            "AUTHVAULT_NON_INTERACTIVE": "1",
        ]
    }()
}
