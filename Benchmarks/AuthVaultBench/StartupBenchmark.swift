/// Start-up cost of the CLI: `authvault --version` against `/bin/true`, the floor of spawning any process.
enum StartupBenchmark {
    static func run(authvault: String, rounds: Int) throws -> Row {
        // Interleave the two so that machine noise hits both alike.
        var ours = Samples(), peer = Samples()
        for _ in 0..<3 {
            try spawnAndWait([authvault, "--version"])
            try spawnAndWait(["/bin/true"])
        }
        for _ in 0..<rounds {
            var start = monotonicNow()
            try spawnAndWait([authvault, "--version"])
            ours.add(monotonicNow() - start)
            start = monotonicNow()
            try spawnAndWait(["/bin/true"])
            peer.add(monotonicNow() - start)
        }
        return Row(name: "start-up: authvault --version", ours: formatSpread(ours),
                   peer: "/bin/true " + formatSpread(peer), ratio: ratio(ours.median, over: peer.median))
    }
}
