#if canImport(Glibc)
    internal import Glibc
#endif

/// The registered redirect URI whose port was free, with the sockets listening for it.
struct BoundRedirect {
    let uri: RegisteredRedirectURI
    let descriptors: [Int32]

    /// Binds the first URI, in registration order, whose port is free on every loopback address its host names.
    /// A port that is busy on one of them is not used at all: the browser might reach the other program there.
    static func first(of uris: [RegisteredRedirectURI]) throws(LoopbackError) -> BoundRedirect {
        var busyPorts: [Int] = []
        var otherFailures: [String] = []
        for uri in uris {
            switch bind(uri) {
            case .success(let bound): return bound
            case .failure(.busy): if !busyPorts.contains(uri.port) { busyPorts.append(uri.port) }
            case .failure(.other(let reason)): otherFailures.append(reason)
            }
        }
        guard !otherFailures.isEmpty else { throw .allPortsBusy(busyPorts) }
        let busy = busyPorts.isEmpty ? [] : ["in use: port " + busyPorts.map(String.init).joined(separator: ", ")]
        throw .bindFailed((otherFailures + busy).joined(separator: "; "), listener: .signInRedirect)
    }

    private enum Failure: Error {
        case busy
        case other(String)
    }

    private static func bind(_ uri: RegisteredRedirectURI) -> Result<BoundRedirect, Failure> {
        var descriptors: [Int32] = []
        var unavailable: [String] = []
        for address in uri.host.socketAddresses(port: uri.port) {
            switch ListeningSocket.open(on: address) {
            case .listening(let descriptor): descriptors.append(descriptor)
            case .unavailable: unavailable.append(address.description)
            case .busy:
                descriptors.forEach { _ = close($0) }
                return .failure(.busy)
            case .failed(let reason):
                descriptors.forEach { _ = close($0) }
                return .failure(.other(reason))
            }
        }
        guard !descriptors.isEmpty else {
            return .failure(.other("this host has no loopback address \(unavailable.joined(separator: ", "))"))
        }
        return .success(BoundRedirect(uri: uri, descriptors: descriptors))
    }
}
