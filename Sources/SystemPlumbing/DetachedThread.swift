#if canImport(Glibc)
    internal import Glibc
#endif

/// A thread of its own for work that blocks (poll, accept, a libcurl transfer, a libsecret `_sync` call, scrypt):
/// Swift's cooperative pool has as many threads as cores (two here), and one blocked thread would stall every task.
/// Detached: nobody joins it; it ends when `body` returns.
package enum DetachedThread {
    /// Starts `body` on a new thread; zero, or the error number of `pthread_create` (then `body` has not run).
    /// `body` is handed over (`sending`): what it captures belongs to the new thread from then on.
    /// - Parameter stackSize: bytes, for threads whose work is shallow and may be many; nil for the default.
    @discardableResult
    package static func start(stackSize: Int? = nil, _ body: sending @escaping () -> Void) -> Int32 {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, box)
        if status != 0 { Unmanaged<Body>.fromOpaque(box).release() }
        return status
    }

    /// Travels to the new thread as a raw pointer: only that thread uses it.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
