import Foundation

/// Runs blocking test work (a child process to completion, a pipe read) on a thread of its own, so a test that
/// waits seconds for a child never holds one of the two threads of Swift's cooperative pool that every other
/// test in the run shares.
public enum OffPool {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }
}
