import Foundation

extension Process {
    /// SIGKILL if it still runs (a child of the test runner may have SIGTERM blocked), then waits for it.
    /// swift-corelibs-foundation's Process and the run-loop source that watches its exit hold each other until
    /// `waitUntilExit()` has returned once: a process never waited for stays allocated for good (LeakSanitizer
    /// reports it in the test runner).
    public func killAndReap() {
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
