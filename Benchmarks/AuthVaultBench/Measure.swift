#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic seconds.
func monotonicNow() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Wall time of `body`, repeated `rounds` times after `warmup` unmeasured runs.
func measure(rounds: Int, warmup: Int = 3, _ body: () throws -> Void) rethrows -> Samples {
    for _ in 0..<warmup { try body() }
    var samples = Samples()
    for _ in 0..<rounds {
        let start = monotonicNow()
        try body()
        samples.add(monotonicNow() - start)
    }
    return samples
}

/// Operations per second of `body`, run in batches for about `seconds`; the median batch rate is returned.
func throughput(seconds: Double = 1.0, batch: Int, _ body: () -> Void) -> Double {
    var rates = Samples()
    let deadline = monotonicNow() + seconds
    repeat {
        let start = monotonicNow()
        for _ in 0..<batch { body() }
        rates.add(Double(batch) / (monotonicNow() - start))
    } while monotonicNow() < deadline
    return rates.median
}

enum SpawnError: Error, CustomStringConvertible {
    case failed(String, Int32)
    var description: String {
        switch self {
        case .failed(let command, let code): return "\(command) failed (status \(code))"
        }
    }
}

/// Runs a program to completion with its output discarded; fails unless it exits 0. `input`: a file to read as
/// standard input.
func spawnAndWait(_ arguments: [String], environment: [String]? = nil, input: String? = nil) throws {
    var fileActions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&fileActions)
    defer { posix_spawn_file_actions_destroy(&fileActions) }
    if let input { posix_spawn_file_actions_addopen(&fileActions, 0, input, O_RDONLY, 0) }
    posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&fileActions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let envStrings = environment.map { $0.map { strdup($0) } + [nil] }
    defer { envStrings?.forEach { free($0) } }
    var pid = pid_t()
    let result =
        envStrings.map { env in
            posix_spawn(&pid, arguments[0], &fileActions, nil, argv, env)
        } ?? posix_spawn(&pid, arguments[0], &fileActions, nil, argv, environ)
    guard result == 0 else { throw SpawnError.failed(arguments[0], result) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else { throw SpawnError.failed(arguments.joined(separator: " "), status) }
}

/// The peak resident set size, in bytes, of a program run as `spawnAndWait` runs it. Through GNU time: a process
/// posix_spawn starts shares this one's memory until it execs, and the kernel's peak for it (`ru_maxrss`) would
/// count this benchmark's own; time forks from a small process.
func peakResidentSetSize(_ arguments: [String], environment: [String]? = nil, input: String? = nil) throws -> Int {
    let directory = try makeTemporaryDirectory(prefix: "authvault-bench-rss")
    let output = directory + "/peak"
    defer { try? spawnAndWait(["/bin/rm", "-rf", directory]) }
    try spawnAndWait(["/usr/bin/time", "-f", "%M", "-o", output] + arguments, environment: environment, input: input)
    guard let kilobytes = lines(of: output).first.flatMap({ Int($0.filter(\.isNumber)) }) else {
        throw SpawnError.failed("/usr/bin/time", -1)
    }
    return kilobytes * 1024
}

/// The lines of a small text file; none when it cannot be read.
func lines(of path: String) -> [String] {
    guard let file = fopen(path, "r") else { return [] }
    defer { fclose(file) }
    var lines: [String] = []
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        lines.append(line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }
    return lines
}

/// A process's resident set size now, in bytes (`VmRSS` in /proc/PID/status); nil when it cannot be read.
func residentSetSize(of pid: pid_t) -> Int? {
    lines(of: "/proc/\(pid)/status").first { $0.hasPrefix("VmRSS:") }.flatMap {
        Int($0.dropFirst(6).filter(\.isNumber))
    }.map { $0 * 1024 }
}

/// Runs a program and returns what it printed on standard output.
func spawnAndCapture(_ arguments: [String]) throws -> String {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw SpawnError.failed("pipe", errno) }
    var fileActions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&fileActions)
    defer { posix_spawn_file_actions_destroy(&fileActions) }
    posix_spawn_file_actions_adddup2(&fileActions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&fileActions, pipeEnds[0])
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let result = posix_spawnp(&pid, arguments[0], &fileActions, nil, argv, environ)
    close(pipeEnds[1])
    guard result == 0 else {
        close(pipeEnds[0])
        throw SpawnError.failed(arguments[0], result)
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
        if count <= 0 { break }
        output += buffer[0..<count]
    }
    close(pipeEnds[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else { throw SpawnError.failed(arguments.joined(separator: " "), status) }
    return String(decoding: output, as: UTF8.self)
}

/// Keeps the optimizer from discarding a benchmarked result.
@inline(never)
func keepAlive<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A new private directory under /tmp, for one benchmark's files.
func makeTemporaryDirectory(prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SpawnError.failed("mkdtemp", errno) }
    return String(cString: made)
}
