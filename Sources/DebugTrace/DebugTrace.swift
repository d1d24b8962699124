/// A debug trace (`authvault --debug`): one line for each decision the program makes and each call it sends, for a
/// person finding out why. Off by default, and then free: a message is built only when the trace is on. Callers
/// give it names, redacted URLs, statuses, counts and times: never a token, a secret or a request's body.
public struct DebugTrace: Sendable {
    private let sink: (@Sendable (String) -> Void)?

    public static let off = DebugTrace(nil)

    /// - Parameter sink: receives each line; nil for a trace that is off.
    public init(_ sink: (@Sendable (String) -> Void)?) {
        self.sink = sink
    }

    public var isOn: Bool { sink != nil }

    public func callAsFunction(_ message: @autoclosure () -> String) {
        sink?(message())
    }

    /// Runs `body`, then traces `message` with the time it took ("… in 12.3 ms").
    public func timed<T, E: Error>(
        _ message: @autoclosure () -> String, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        guard let sink else { return try await body() }
        let start = ContinuousClock.now
        do {
            let value = try await body()
            sink("\(message()) in \(Self.milliseconds(since: start))")
            return value
        } catch {
            sink("\(message()) failed after \(Self.milliseconds(since: start))")
            throw error
        }
    }

    /// "12.3 ms": the time since `start`.
    public static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
