import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// What a tool's command printed and how it ended.
public struct ToolOutput: Sendable, Equatable {
    public let status: Int32
    public let standardOutput: [UInt8]
    public let standardError: String

    public init(status: Int32, standardOutput: [UInt8], standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    public var text: String { String(decoding: standardOutput, as: UTF8.self) }
}

/// Runs another tool's own command: git, which writes its own configuration, and kubectl, which reads a YAML
/// kubeconfig for us.
public protocol ToolRunner: Sendable {
    /// Runs `tool` (a name looked up on `environment`'s PATH) with `arguments` and `environment`, nothing on its
    /// standard input.
    func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws(SetupError) -> ToolOutput
}

/// Runs the tool as a child process and reads what it prints.
public struct SpawnedTool: ToolRunner {
    public init() {}

    public func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws(SetupError)
        -> ToolOutput
    {
        guard let path = Self.locate(tool, searchPath: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw .toolMissing(name: tool)
        }
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw Self.failure(tool, arguments, errno) }
        guard pipe(&errors) == 0 else {
            close(output[0])
            close(output[1])
            throw Self.failure(tool, arguments, errno)
        }
        // Only the child's dup2 copies may outlive the spawn in it.
        for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        var pid: pid_t = 0
        let spawned = CStringArrays.with([path] + arguments, environment) { argv, envp in
            posix_spawn(&pid, path, &actions, nil, argv, envp)
        }
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        guard spawned == 0 else { throw Self.failure(tool, arguments, spawned) }
        // The tools' messages are short: reading standard output to its end first cannot fill the other pipe.
        let printed = Self.readAll(output[0])
        let complaint = Self.readAll(errors[0])
        var status: Int32 = 0
        _ = try? SystemCall.retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ToolOutput(
            status: exitStatus, standardOutput: printed, standardError: String(decoding: complaint, as: UTF8.self))
    }

    /// The first executable `name` on `searchPath`, as a shell finds it.
    static func locate(_ name: String, searchPath: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        return searchPath.split(separator: ":").lazy.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while let count = try? SystemCall.retryingInterrupts(
            "read", { chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) } }),
            count > 0
        {
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    private static func failure(_ tool: String, _ arguments: [String], _ code: Int32) -> SetupError {
        .toolFailed(name: tool, arguments: arguments, status: -1, message: String(cString: strerror(code)))
    }
}
