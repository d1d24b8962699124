import Foundation

/// A loopback port held by the test (as another program would hold it), released when this value goes.
public final class LoopbackPort: @unchecked Sendable {
    private let descriptor: Int32

    public init(_ port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        // As a server would: a connection of an earlier test in TIME_WAIT does not make the port busy.
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 1) == 0 else {
            close(descriptor)
            throw TestFixtureError("port \(port) is not free")
        }
    }

    deinit { close(descriptor) }

    /// Whether something accepts connections on the port within `timeout`.
    public static func waitUntilListening(_ port: UInt16, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(probe)
            if connected == 0 { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}

/// Loopback ports for tests that must name them in advance (registered redirect URIs): a run of consecutive free
/// ports below the kernel's ephemeral range, so that no outgoing connection of this or another program is handed
/// one of them while a test relies on it being free.
public enum FreeLoopbackPorts {
    /// `count` consecutive ports, each free when this returns.
    public static func run(of count: Int) -> [UInt16] {
        // Start where another test process probably does not, so that processes running side by side keep apart.
        var first = UInt16(20_000 + Int(getpid() % 1_000) * 10)
        while first < 32_000 {
            let ports = (0..<count).map { first + UInt16($0) }
            if ports.allSatisfy(isFree) { return ports }
            first += UInt16(count)
        }
        fatalError("no \(count) consecutive free loopback ports between 20000 and 32000")
    }

    private static func isFree(_ port: UInt16) -> Bool {
        (try? LoopbackPort(port)) != nil
    }
}
