internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// A small HTTP endpoint on 127.0.0.1 for one local program (the AWS SDKs' container-credentials endpoint of
/// `exec --aws`), served by the same listener as the sign-in's redirect.
///
/// Only `GET` on `path` with `Host: 127.0.0.1:PORT` (the URL's authority, as the SDKs send it) and `Authorization`
/// exactly equal to the per-run token (compared in constant time) reaches the caller, through `requests`; a request
/// without `Host` gets 400, for another host 403 (a web page that re-pointed its name at 127.0.0.1: DNS rebinding),
/// without `Authorization` 401, with a wrong one 403, another path 404, another method 405. Serving goes on until `close()` (or release), which ends `requests` and frees the port at once.
///
/// ```swift
/// let endpoint = try LoopbackEndpoint(path: "/credentials", token: token)
/// spawn(command, environment: ["URL": endpoint.url, "TOKEN": token])
/// for await request in endpoint.requests { request.respond(json: try await currentCredentials()) }
/// ```
public final class LoopbackEndpoint: Sendable {
    /// `http://127.0.0.1:PORT/path`, the port chosen by the kernel.
    public let url: String
    /// Each authorized request, in arrival order; it ends once the endpoint is closed.
    public let requests: AsyncStream<EndpointRequest>
    private let core: ListenerCore

    public init(path: String, token: String, limits: LoopbackListener.Limits = .init()) throws(LoopbackError) {
        precondition(path.hasPrefix("/") && !token.isEmpty, "a path from the root and a token")
        let address = SocketAddress.ipv4(UInt32(0x7F00_0001).bigEndian, port: 0)
        let descriptor: Int32
        switch ListeningSocket.open(on: address) {
        case .listening(let listening): descriptor = listening
        case .busy, .unavailable: throw .bindFailed("cannot listen on \(address)", listener: .endpoint)
        case .failed(let reason): throw .bindFailed(reason, listener: .endpoint)
        }
        guard let wakeup = Wakeup(), let bound = SocketAddress.local(of: descriptor) else {
            _ = Glibc.close(descriptor)
            throw .bindFailed(
                "cannot create a wake-up socket pair: \(SystemCallError.text(errno))", listener: .endpoint)
        }
        url = "http://\(bound)\(path)"
        let (requests, continuation) = AsyncStream.makeStream(of: EndpointRequest.self)
        self.requests = requests
        core = ListenerCore(listeners: [descriptor], wakeup: wakeup)
        let router = EndpointRouter(path: path, token: token, requests: continuation)
        let server = ConnectionServer(
            core: core, router: router, expectedHost: ExpectedHost(bound.description), limits: limits, deadline: nil)
        let status = DetachedThread.start { server.run() }
        guard status == 0 else {
            continuation.finish()
            core.finish(.failure(.cancelled))
            core.closeListeners()
            throw .bindFailed("cannot start the listener thread: \(SystemCallError.text(status))", listener: .endpoint)
        }
    }

    deinit {
        close()
    }

    /// Stops serving: from its return nothing more is accepted and the port is free to bind; `requests` ends a
    /// moment later. Safe from any thread; never blocks.
    public func close() {
        core.finish(.failure(.cancelled))
    }
}

/// One authorized request to a `LoopbackEndpoint`, waiting for its answer. Released unanswered, it gets 503.
public final class EndpointRequest: Sendable {
    private let connection: HeldConnection

    init(connection: HeldConnection) {
        self.connection = connection
    }

    deinit {
        fail()
    }

    /// Answers 200 with this JSON document. Only the first answer is sent.
    public func respond(json: [UInt8]) {
        connection.answer(.ok, .json(json))
    }

    /// Answers 503 with this JSON document (the AWS SDKs show its `message`): nothing secret may go in it.
    public func fail(json: [UInt8]) {
        connection.answer(.serviceUnavailable, .json(json))
    }

    /// Answers 503 saying only that nothing is available.
    public func fail() {
        connection.answer(.serviceUnavailable, EndpointRouter.message("Nothing is available."))
    }
}
