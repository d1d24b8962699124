import SystemPlumbing
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The bridges between threads and async code: `DedicatedThread` (a blocking call awaited), `BlockingWait` (an async
/// call a thread blocks on) and `OneShot` (a value, or an event, that arrives once).
@Suite struct ThreadBridgeTests {
    private struct Refused: Error, Equatable {}

    /// Eight blocking calls of 300 ms at once end together: each had a thread of its own, where the cooperative
    /// pool (two threads here) would have taken 1.2 s.
    @Test func blockingCallsRunOnThreadsOfTheirOwn() async {
        let started = ContinuousClock.now
        let results = await withTaskGroup(of: Int.self, returning: [Int].self) { group in
            for index in 0..<8 {
                group.addTask {
                    await DedicatedThread.run { () -> Int in
                        usleep(300_000)
                        return index
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<8))
        #expect(ContinuousClock.now - started < .milliseconds(1_000), "\(ContinuousClock.now - started)")
    }

    @Test func aBlockingCallsErrorKeepsItsType() async {
        await #expect(throws: Refused()) {
            try await DedicatedThread.run { () throws(Refused) -> Int in throw Refused() }
        }
    }

    @Test func aThreadBlocksUntilTheAsyncCallReturns() async {
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            DetachedThread.start {
                continuation.resume(
                    returning: BlockingWait.run {
                        try? await Task.sleep(for: .milliseconds(50))
                        return 42
                    })
            }
        }
        #expect(answer == 42)
    }

    @Test func theFirstValueWinsForEveryWaiterBeforeAndAfter() async {
        let outcome = OneShot<String>()
        #expect(!outcome.isSettled)
        let early = Task { await outcome.value() }
        let alsoEarly = Task { await outcome.value(timeout: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(outcome.settle("first"))
        #expect(!outcome.settle("second"), "a later value changes nothing")
        #expect(outcome.isSettled)
        #expect(await early.value == "first")
        #expect(await alsoEarly.value == "first")
        #expect(await outcome.value() == "first", "a waiter after it gets it at once")
    }

    @Test func aBoundedWaitEndsWithNothingAndTheValueStillComes() async {
        let outcome = OneShot<Int>()
        let started = ContinuousClock.now
        #expect(await outcome.value(timeout: .milliseconds(100)) == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(!outcome.isSettled)
        DetachedThread.start { outcome.settle(7) }
        #expect(await outcome.value() == 7)
    }

    @Test func anEventIsDoneForWhoeverWaits() async {
        let event = Completion()
        let waiter = Task { await event.wait() }
        #expect(!event.isDone)
        event.finish()
        event.finish()
        await waiter.value
        #expect(event.isDone)
        await event.wait(timeout: .seconds(30))
    }
}
