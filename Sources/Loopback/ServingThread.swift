#if canImport(Glibc)
internal import Glibc
#endif

/// Starts the server's poll loop on a detached thread of its own: `poll` blocks, and Swift's cooperative pool has
/// as many threads as cores (two here), so it must never run there.
enum ServingThread {
    /// Zero, or the error number of `pthread_create`.
    static func start(_ server: CallbackServer) -> Int32 {
        let context = Unmanaged.passRetained(server).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<CallbackServer>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if status != 0 { Unmanaged<CallbackServer>.fromOpaque(context).release() }
        return status
    }
}
