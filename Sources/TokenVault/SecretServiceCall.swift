internal import CSecret
import Synchronization
internal import SystemPlumbing

/// One bounded job against the Secret Service: it runs on a dedicated thread with a `GCancellable` that is
/// cancelled when the deadline passes (or the calling task is cancelled), and the caller gets `.timedOut` at the
/// deadline even if libsecret is slow to notice. Jobs run one at a time: libsecret's objects are shared process-wide.
/// A job that does not use libsecret (`usesLibsecret: false`: the plain read, through libdbus) gets no
/// `GCancellable`, and GLib is not loaded for it; it bounds its own calls and checks `isCancelled` between them.
enum SecretServiceCall {
    private static let serialized = Locked(())

    static func run<T: Sendable>(
        timeout: Duration, usesLibsecret: Bool = true,
        _ job: @escaping @Sendable (CallCancellable) throws(VaultError) -> T
    ) async throws(VaultError) -> T {
        // libsecret (and GLib under it) is loaded by the first call that needs it, not at start-up.
        if usesLibsecret, let loadError = authvault_secret_load_error() {
            throw .unavailable(String(cString: loadError))
        }
        let cancellable = CallCancellable(timeout: timeout, withGCancellable: usesLibsecret)
        // The job's result or `.timedOut` at the deadline, whichever comes first.
        let outcome = OneShot<Result<T, VaultError>>()
        let deadline = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            cancellable.cancel(reason: .deadline)
            outcome.settle(.failure(.timedOut(seconds: cancellable.timeoutSeconds)))
        }
        defer { deadline.cancel() }
        DedicatedThread.start {
            let result = serialized.withLock { _ in
                // A job that waited past its deadline for the one before it does not start at all.
                guard !cancellable.isCancelled else {
                    return Result<T, VaultError>.failure(cancellable.cancellationError)
                }
                return Result { () throws(VaultError) -> T in try job(cancellable) }
            }
            outcome.settle(result)
        }
        let result = await withTaskCancellationHandler {
            await outcome.value()
        } onCancel: {
            cancellable.cancel(reason: .caller)
        }
        return try result.get()
    }
}

/// Why the job was cancelled, and the job's `GCancellable` (thread-safe in GLib) for libsecret's calls.
final class CallCancellable: Sendable {
    enum Reason: Int { case none, deadline, caller }

    let timeoutSeconds: Double
    private let reason = Atomic<Int>(Reason.none.rawValue)
    /// The GCancellable's address; 0 for a job that does not use libsecret.
    private let address: UInt

    init(timeout: Duration, withGCancellable: Bool) {
        timeoutSeconds = timeout.inSeconds
        address = withGCancellable ? UInt(bitPattern: authvault_g_cancellable_new()) : 0
    }

    deinit { if address != 0 { authvault_g_object_unref(UnsafeMutableRawPointer(pointer)) } }

    /// For libsecret's calls; only a job run with `usesLibsecret` has one.
    var pointer: OpaquePointer { OpaquePointer(bitPattern: address)! }

    var isCancelled: Bool { reason.load(ordering: .acquiring) != Reason.none.rawValue }

    func cancel(reason newReason: Reason) {
        _ = reason.compareExchange(
            expected: Reason.none.rawValue, desired: newReason.rawValue, ordering: .acquiringAndReleasing)
        if address != 0 { authvault_g_cancellable_cancel(pointer) }
    }

    /// What a call that libsecret reports as cancelled means to the caller.
    var cancellationError: VaultError {
        reason.load(ordering: .relaxed) == Reason.caller.rawValue
            ? .io("the Secret Service call was cancelled")
            : .timedOut(seconds: timeoutSeconds)
    }
}
