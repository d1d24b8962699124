internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// A non-blocking, close-on-exec TCP socket listening on one loopback address.
enum ListeningSocket {
    enum Outcome {
        case listening(Int32)
        /// Another socket holds the address and port.
        case busy
        /// This host has no such address (no IPv6 loopback): nothing to bind, nothing to be reached at.
        case unavailable
        case failed(String)
    }

    static func open(on address: SocketAddress) -> Outcome {
        var on: Int32 = 1
        let optionSize = socklen_t(MemoryLayout<Int32>.size)
        do {
            return .listening(
                try StreamListener.open(
                    family: address.family, backlog: 16,
                    prepare: { descriptor in
                        // A port left in TIME_WAIT by the previous sign-in is free to use; a live listener still makes bind fail.
                        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, optionSize)
                        // [::1] only, never IPv4 through a mapped address: the IPv4 side is bound (or not) on its own.
                        if address.family == AF_INET6 {
                            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, optionSize)
                        }
                    }, bind: { descriptor in address.withSockaddr { bind(descriptor, $0, $1) } }))
        } catch {
            switch error.code {
            case EADDRINUSE: return .busy
            case EADDRNOTAVAIL, EAFNOSUPPORT: return .unavailable
            default: return .failed("\(address): \(error)")
            }
        }
    }
}
