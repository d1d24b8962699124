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
    _ = try spawnMeasuringPeak(arguments, environment: environment, input: input)
}

/// `spawnAndWait`, returning the process's peak resident set size in bytes (the kernel's `ru_maxrss`).
func spawnMeasuringPeak(_ arguments: [String], environment: [String]? = nil, input: String? = nil) throws -> Int {
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
    let result = envStrings.map { env in
        posix_spawn(&pid, arguments[0], &fileActions, nil, argv, env)
    } ?? posix_spawn(&pid, arguments[0], &fileActions, nil, argv, environ)
    guard result == 0 else { throw SpawnError.failed(arguments[0], result) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    guard status == 0 else { throw SpawnError.failed(arguments.joined(separator: " "), status) }
    return usage.ru_maxrss * 1024
}

/// A process's resident set size now, in bytes (`VmRSS` in /proc/PID/status); nil when it cannot be read.
func residentSetSize(of pid: pid_t) -> Int? {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard text.hasPrefix("VmRSS:") else { continue }
        return Int(text.dropFirst(6).filter(\.isNumber)).map { $0 * 1024 }
    }
    return nil
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
    guard result == 0 else { close(pipeEnds[0]); throw SpawnError.failed(arguments[0], result) }
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
