#if canImport(Glibc)
    import Glibc
#endif

/// The agent under load: 16 client threads, a new connection per request as `authvault token` makes it, about 3 s
/// in all. The peer is a python3 asyncio Unix-socket server that answers each request line with a line of the
/// agent's reply size, measured with the same client, in 1-second turns alternating with the agent's.
enum AgentThroughputBenchmark {
    static let clients = 16
    static let turns = 3

    static func run(agentSocket: String, profile: String, directory: String) throws -> Row {
        let request = Array(#"{"v":1,"op":"token","profile":"\#(profile)","kind":"access"}"#.utf8) + [0x0A]
        let agent = LineClient(
            socketPath: agentSocket, request: request, expectedPrefix: Array(#"{"v":1,"ok":true"#.utf8))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        guard let replySize = agent.exchange(buffer: &buffer) else {
            throw SpawnError.failed("a token request to the agent", -1)
        }

        let echoSocket = directory + "/echo.sock"
        let echo = try BackgroundProcess.start(
            ["/usr/bin/python3", "-c", echoServer, echoSocket, String(replySize)], socketPath: echoSocket)
        defer { echo.stop() }
        let peer = LineClient(socketPath: echoSocket, request: request, expectedPrefix: Array("x".utf8))

        var ours = LoadResult()
        var theirs = LoadResult()
        for _ in 0..<turns {
            ours = ours + concurrentLoad(agent, clients: clients, seconds: 1)
            theirs = theirs + concurrentLoad(peer, clients: clients, seconds: 1)
        }
        return Row(
            name: "agent: \(clients) clients, a connection per token (goal >= 20 k/s, p99 < 2 ms)", ours: ours.summary,
            peer: "python3 asyncio line server " + theirs.summary, ratio: ratio(ours.rate, over: theirs.rate))
    }

    /// Answers every line with `size` bytes (newline included) until the client closes.
    private static let echoServer = """
        import asyncio, os, sys
        path, size = sys.argv[1], int(sys.argv[2])
        reply = b"x" * (size - 1) + b"\\n"
        async def serve(reader, writer):
            try:
                while await reader.readline():
                    writer.write(reply)
                    await writer.drain()
            finally:
                writer.close()
        async def main():
            server = await asyncio.start_unix_server(serve, path, backlog=128)
            os.chmod(path, 0o600)
            await server.serve_forever()
        asyncio.run(main())
        """
}
