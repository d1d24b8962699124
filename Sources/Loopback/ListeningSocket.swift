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
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                                | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            return errno == EAFNOSUPPORT ? .unavailable : .failed("socket for \(address): \(errorText())")
        }
        var on: Int32 = 1
        let optionSize = socklen_t(MemoryLayout<Int32>.size)
        // A port left in TIME_WAIT by the previous sign-in is free to use; a live listener still makes bind fail.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, optionSize)
        // [::1] only, never IPv4 through a mapped address: the IPv4 side is bound (or not) on its own.
        if address.family == AF_INET6 { setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, optionSize) }

        let bound = address.withSockaddr { bind(descriptor, $0, $1) } == 0 && listen(descriptor, 16) == 0
        if bound { return .listening(descriptor) }
        let code = errno
        close(descriptor)
        switch code {
        case EADDRINUSE: return .busy
        case EADDRNOTAVAIL: return .unavailable
        default: return .failed("\(address): \(errorText(code))")
        }
    }
}

func errorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
