import Foundation
import SystemPlumbing
import TestSupport
import Testing

@testable import TokenVault

@Suite struct ProfileLockTests {
    @Test func holdersInOneProcessNeverOverlap() async throws {
        let directory = try TemporaryDirectory()
        let lock = ProfileLock(directory: directory.appending("locks"), profile: "work")
        let inside = OverlapCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await lock.withLock { () async throws(CancellationError) in
                        inside.enter()
                        try? await Task.sleep(for: .milliseconds(5))
                        inside.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.state.maximum == 1)
        #expect(inside.state.entries == 10)
    }

    @Test func waitsForAnotherProcessAndTimesOutWithAClearError() async throws {
        let directory = try TemporaryDirectory()
        let locks = directory.appending("locks")
        let lock = ProfileLock(directory: locks, profile: "work", timeout: .milliseconds(300))
        try await lock.withLock { () async throws(CancellationError) in }  // creates the directory and the lock file

        // Another process takes the same flock(2) lock: one python process, so SIGKILL releases it at once.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: PeerPython.path)
        holder.arguments = [
            "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'w'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(30)",
            lock.path,
        ]
        holder.standardInput = FileHandle.nullDevice
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        // SIGKILL: children of the test runner inherit a signal mask that blocks SIGTERM.
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        try await waitUntilHeldElsewhere(lock.path)

        let start = ContinuousClock.now
        await #expect(throws: ProfileLockError<CancellationError>.self) {
            try await lock.withLock { () async throws(CancellationError) in }
        }
        #expect(ContinuousClock.now - start >= .milliseconds(250))

        // A patient waiter gets the lock as soon as the other process lets go.
        let patient = ProfileLock(directory: locks, profile: "work", timeout: .seconds(20))
        let waited = ContinuousClock.now
        let waiter = Task { try await patient.withLock { () async throws(CancellationError) in ContinuousClock.now } }
        try await Task.sleep(for: .milliseconds(300))
        kill(holder.processIdentifier, SIGKILL)
        let acquiredAt = try await waiter.value
        #expect(acquiredAt - waited >= .milliseconds(300))
    }

    /// Polls until another process holds the lock on `path`.
    private func waitUntilHeldElsewhere(_ path: String) async throws {
        let descriptor = open(path, O_RDWR)
        defer { close(descriptor) }
        for _ in 0..<1000 {
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 { return }
            flock(descriptor, LOCK_UN)
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFixtureError("the other process never took the lock")
    }

    @Test func lockTimeoutMessageNamesTheProfile() {
        let message = VaultError.lockTimedOut(profile: "work", seconds: 30).description
        #expect(message.contains("'work'"))
    }

    @Test func lockFileIsPrivateAndSeparateFromData() async throws {
        let directory = try TemporaryDirectory()
        let lock = ProfileLock(directory: directory.appending("locks"), profile: "p1")
        try await lock.withLock { () async throws(CancellationError) in }
        let attributes = try FileManager.default.attributesOfItem(atPath: lock.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(lock.path.hasSuffix("/locks/p1.lock"))
    }
}

/// Counts how many holders are inside a critical section at once.
final class OverlapCounter: Sendable {
    private let counts = Locked((current: 0, maximum: 0, entries: 0))
    func enter() {
        counts.withLock {
            $0.current += 1
            $0.maximum = max($0.maximum, $0.current)
            $0.entries += 1
        }
    }
    func leave() { counts.withLock { $0.current -= 1 } }
    var state: (current: Int, maximum: Int, entries: Int) { counts.withLock { $0 } }
}
