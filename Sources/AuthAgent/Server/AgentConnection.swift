import AuthCrypto
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// One client connection on a thread of its own: reads request lines and answers each in order (a client may send
/// several before reading), until the client leaves, breaks a limit, or the agent stops. A slow or hostile client
/// holds only its own thread.
struct AgentConnection {
    let descriptor: Int32
    /// What the connection's user may ask.
    let served: ServedProfiles
    let service: AgentService
    let limits: AgentServer.Limits
    let log: @Sendable (String) -> Void

    func run() {
        UnixSocket.setTimeout(descriptor, option: SO_SNDTIMEO, limits.readTimeout)
        UnixSocket.setTimeout(descriptor, option: SO_RCVTIMEO, limits.readTimeout)
        var receiveTimeoutIsFull = true
        var input: [UInt8] = []
        input.reserveCapacity(4096)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var scanned = 0
        // Each request line must be complete within `readTimeout` of the previous one (or of the connection).
        var deadline = ContinuousClock.now + limits.readTimeout

        while true {
            var consumed = 0
            while let newline = input[scanned...].firstIndex(of: 0x0A) {
                service.answer(input[consumed..<newline], served: served, into: &output)
                consumed = newline + 1
                scanned = consumed
            }
            scanned = input.count
            if consumed > 0 {
                input.removeFirst(consumed)
                scanned -= consumed
                deadline = ContinuousClock.now + limits.readTimeout
            }
            if input.count > limits.maximumLineLength {
                output.append(
                    contentsOf: AgentReply.failure(
                        .badRequest("The request line is longer than \(limits.maximumLineLength) bytes")
                    ).line)
                log("closed a connection that sent a request line over \(limits.maximumLineLength) bytes")
                flush(&output)
                return
            }
            guard flush(&output) else { return }

            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                if !input.isEmpty {
                    log("closed a connection that sent no complete request within \(limits.readTimeout)")
                }
                return
            }
            // A partial line gets only what is left of its time; an idle connection waits the full timeout.
            if !input.isEmpty {
                UnixSocket.setTimeout(descriptor, option: SO_RCVTIMEO, remaining)
                receiveTimeoutIsFull = false
            } else if !receiveTimeoutIsFull {
                UnixSocket.setTimeout(descriptor, option: SO_RCVTIMEO, limits.readTimeout)
                receiveTimeoutIsFull = true
            }
            let room = min(chunk.count, limits.maximumLineLength + 1 - input.count)
            let count: Int
            var failure: Int32 = 0
            do {
                count = try SystemCall.retryingInterrupts("recv") {
                    chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, room, 0) }
                }
            } catch {
                (count, failure) = (-1, error.code)
            }
            if count > 0 {
                input.append(contentsOf: chunk[0..<count])
            } else {
                if failure == EAGAIN || failure == EWOULDBLOCK, !input.isEmpty {
                    log("closed a connection that sent no complete request within \(limits.readTimeout)")
                }
                // The end of input: the client left, or the agent is stopping and every reply owed has been sent.
                return
            }
        }
    }

    /// Sends what is pending and wipes it (replies hold tokens). False when the client is gone or stopped reading.
    @discardableResult
    private func flush(_ output: inout [UInt8]) -> Bool {
        guard !output.isEmpty else { return true }
        let sent = output.withUnsafeBytes { UnixSocket.sendAll(descriptor, $0) }
        output.wipe()
        return sent
    }
}
