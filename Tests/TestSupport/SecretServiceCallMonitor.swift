import Foundation

/// One Secret Service method call as dbus-monitor prints it: the member, then its arguments' lines.
public struct SecretServiceMethodCall: Sendable, CustomStringConvertible {
    public var member: String
    public var arguments: [String] = []

    public var description: String { "\(member)(\(arguments.joined(separator: ", ")))" }

    static func parse(_ lines: [String]) -> [SecretServiceMethodCall] {
        var calls: [SecretServiceMethodCall] = []
        for line in lines {
            if line.hasPrefix("method call"), let member = line.components(separatedBy: "member=").last {
                calls.append(SecretServiceMethodCall(member: member))
            } else if line.hasPrefix(" "), !calls.isEmpty {
                calls[calls.count - 1].arguments.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return calls
    }
}

extension SecretServiceSession {
    /// The Secret Service calls made on this session's bus while `body` runs, in order, as `dbus-monitor` (dbus-bin)
    /// sees them: every method call on an object under /org/freedesktop/secrets.
    public func secretServiceCalls(during body: () async throws -> Void) async throws -> [SecretServiceMethodCall] {
        let monitor = try InteractiveProcess(
            "dbus-monitor", ["--session", "type='method_call',path_namespace='/org/freedesktop/secrets'"],
            environment: environment)
        defer { monitor.kill() }
        // dbus-monitor has become a monitor once it has lost the name it got.
        while let line = try await OffPool.run({ monitor.readLine() }), !line.contains("member=NameLost") {}
        try await body()
        var lines: [String] = []
        // The calls of a process that has ended are all on the bus; a short wait after the last catches any extra.
        while true {
            let timeout: TimeInterval = lines.isEmpty ? 10 : 0.5
            guard let line = try await OffPool.run({ monitor.readLine(timeout: timeout) }) else { break }
            lines.append(line)
        }
        return SecretServiceMethodCall.parse(lines)
    }

    /// Whether dbus-monitor is installed, for the tests that count calls.
    public static var canMonitor: Bool { isSupported && (try? ProcessRunner.which("dbus-monitor")) != nil }
}
