/// Start-up cost of the CLI: `authvault --version` and `--help` against `/bin/true`, the floor of spawning any
/// process, and against the yardstick (a Swift program that imports Foundation and prints a line, same flags).
enum StartupBenchmark {
    static func run(authvault: String, yardstick: String, rounds: Int) throws -> [Row] {
        let commands = [[authvault, "--version"], [authvault, "--help"], ["/bin/true"], [yardstick]]
        // Interleaved, so that machine noise hits all alike.
        var samples = Array(repeating: Samples(), count: commands.count)
        for round in -3..<rounds {
            for (index, command) in commands.enumerated() {
                let start = monotonicNow()
                try spawnAndWait(command)
                if round >= 0 { samples[index].add(monotonicNow() - start) }
            }
        }
        let (version, help, floor, yardstickSamples) = (samples[0], samples[1], samples[2], samples[3])
        return [version, help].enumerated().map { index, ours in
            Row(
                name: "start-up: authvault \(index == 0 ? "--version" : "--help") (goal <= 1.3x yardstick)",
                ours: formatSpread(ours),
                peer: "/bin/true " + formatSpread(floor), ratio: ratio(ours.median, over: floor.median),
                yardstick: yardstickColumn(ours: ours, yardstick: yardstickSamples))
        }
    }
}
