import NetworkHosts
import SecureFiles

/// Why a setup changed nothing. The command line adds what to do about it.
public enum SetupError: Error, Sendable, Equatable, CustomStringConvertible {
    case configuration(ConfigError)
    /// The tool's file could not be read or written.
    case file(path: String, reason: String)
    /// Other users can change the tool's file, so it is not built upon.
    case untrusted(FileSystemError)
    /// The tool's file is not what the tool itself would read, so it is left as it is.
    case malformed(path: String, problem: String)
    /// The tool is not on the PATH.
    case toolMissing(name: String)
    /// The tool refused one of its own commands.
    case toolFailed(name: String, arguments: [String], status: Int32, message: String)
    /// The kubeconfig has no context of that name.
    case noSuchContext(name: String, known: [String])
    /// The kubectl that read the YAML kubeconfig left out these fields (it is older than the file): rewriting
    /// the file from what it read would drop them.
    case kubeconfigFieldsUnknown(path: String, fields: [String])
    /// The kubeconfig user of that name signs in some other way: it is not overwritten.
    case kubeconfigUserTaken(name: String)
    /// The Vault CLI runs a token helper by path, and the link by that name is not beside this binary.
    case helperLinkMissing(path: String)
    /// Another user could replace the program the tools would run (`path`, or a directory above it).
    case untrustedProgram(path: String, FileSystemError)
    /// HOME is unset or not an absolute path: the tools' files cannot be found.
    case homeUnusable(value: String?)
    /// A name that goes into a tool's file has a character the tool would read as the end of it.
    case invalidName(SetupName, value: String, rule: String)
    /// The context's cluster server is not an https URL: the plugin would hand its token to no server it can check.
    case clusterServerRefused(context: String, server: String?)
    /// `setup aws` for a profile with no identity pool: the AWS CLI would get no credentials from it.
    case noIdentityPool(profile: String)

    public var description: String {
        switch self {
        case .configuration(let error): "\(error)"
        case .file(let path, let reason): "Cannot change \(path): \(reason). Nothing was changed."
        case .untrusted(let error): "\(error). Nothing was changed."
        case .malformed(let path, let problem): "\(path) is malformed (\(problem)); it was left unchanged."
        case .toolMissing(let name): "'\(name)' is not on the PATH."
        case .toolFailed(let name, let arguments, let status, let message):
            "'\(([name] + arguments).joined(separator: " "))' failed (exit status \(status))"
                + (message.isEmpty ? "." : ": \(message)")
        case .noSuchContext(let name, let known):
            "The kubeconfig has no context '\(name)'"
                + (known.isEmpty ? "." : " (it has: \(known.joined(separator: ", "))).")
        case .kubeconfigFieldsUnknown(let path, let fields):
            "kubectl reads \(path) without its fields \(fields.joined(separator: ", ")), so rewriting it would drop them; it was left unchanged."
        case .kubeconfigUserTaken(let name):
            "The kubeconfig user '\(name)' already signs in another way; it was left unchanged."
        case .helperLinkMissing(let path): "The Vault token helper \(path) does not exist."
        case .untrustedProgram(let path, let error):
            "The tools would run \(path), which another user could replace: \(error). Nothing was changed."
        case .homeUnusable(let value):
            "HOME is " + (value.map { "'\($0)', not an absolute path" } ?? "not set")
                + ", so the tools' files cannot be found. Nothing was changed."
        case .invalidName(let name, let value, let rule):
            "'\(ServerText.escaped(value))' is no \(name.rawValue): \(rule). Nothing was changed."
        case .clusterServerRefused(let context, let server):
            "The kubeconfig context '\(context)' names "
                + (server.map { "the cluster server '\(ServerText.escaped($0))'" } ?? "no cluster server")
                + ": a token goes only to an https server. Nothing was changed."
        case .noIdentityPool(let profile):
            "Profile '\(profile)' has no identity pool, so the AWS CLI would get no credentials from it. Nothing was changed."
        }
    }
}

/// The names a setup writes into a tool's file, each by what the tool calls it.
public enum SetupName: String, Sendable, Equatable {
    case awsProfile = "AWS config profile name"
    case kubeContext = "kubeconfig context name"
    case kubeUser = "kubeconfig user name"
    case registry = "registry host"
    case gitHost = "git host"
}
