internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The open client connections: admits up to a cap, wakes them all when the agent stops, and says when the
/// last one has ended.
final class ConnectionSet: Sendable {
    private struct State {
        var descriptors: Set<Int32> = []
        var isStopping = false
    }

    let capacity: Int
    private let state = Locked(State())
    /// Finished once stopping and empty.
    let drained = Completion()

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// False when the set is full or the agent is stopping: the caller closes the connection.
    func admit(_ descriptor: Int32) -> Bool {
        state.withLock { state in
            guard !state.isStopping, state.descriptors.count < capacity else { return false }
            state.descriptors.insert(descriptor)
            return true
        }
    }

    /// Forgets and closes a connection. Removed before it is closed, so `stopAll` never touches a reused number.
    func close(_ descriptor: Int32) {
        let isLast = state.withLock { state in
            state.descriptors.remove(descriptor)
            return state.isStopping && state.descriptors.isEmpty
        }
        Glibc.close(descriptor)
        if isLast { drained.finish() }
    }

    /// No more admissions; every connection's next read sees the end of input, so it sends the replies it owes
    /// and ends.
    func stopAll() {
        let isEmpty = state.withLock { state in
            state.isStopping = true
            for descriptor in state.descriptors { shutdown(descriptor, Int32(SHUT_RD)) }
            return state.descriptors.isEmpty
        }
        if isEmpty { drained.finish() }
    }

    var count: Int { state.withLock { $0.descriptors.count } }
}
