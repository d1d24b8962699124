import SystemPlumbing
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LockedTests {
    @Test func threadsThatUpdateTheValueTogetherLoseNoUpdate() async {
        let counter = Locked(0)
        let threads = 8
        let rounds = 20_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        DetachedThread.start {
                            for _ in 0..<rounds { counter.withLock { $0 += 1 } }
                            continuation.resume()
                        }
                    }
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    private struct Refused: Error, Equatable {}

    @Test func aThrownErrorKeepsItsTypeKeepsWhatWasWrittenAndReleasesTheLock() {
        let value = Locked([1])
        #expect(throws: Refused()) {
            try value.withLock { (numbers) throws(Refused) in
                numbers.append(2)
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == [1, 2], "the lock was released, or this would never return")
    }

    private final class Tracked: Sendable {}

    @Test func theValueIsReleasedWithTheLock() {
        weak var watched: Tracked?
        do {
            let tracked = Tracked()
            watched = tracked
            let holder = Locked(tracked)
            #expect(holder.withLock { $0 } === tracked)
        }
        #expect(watched == nil)
    }
}
