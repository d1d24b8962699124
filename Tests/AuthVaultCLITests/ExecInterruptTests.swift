import Foundation
import TestSupport
import Testing

/// `exec --token-file` (and `--aws`, the same supervision) on a terminal: the command stays in the terminal's
/// foreground process group, so a Ctrl-C typed there reaches it directly and authvault does not pass on a second
/// (terraform quits at once on two); a SIGINT a process sends authvault alone still reaches the command once.
@Suite struct ExecInterruptTests {
    /// Counts its SIGINTs: waits for the terminal's Ctrl-C, then has authvault alone sent one (`kill -INT` of its
    /// parent), each time waiting a second more for a duplicate.
    static let counter = """
        import os, signal, time
        count = 0
        def counted(number, frame):
            global count
            count += 1
        signal.signal(signal.SIGINT, counted)
        def settle(expected):
            deadline = time.time() + 30
            while count < expected and time.time() < deadline:
                time.sleep(0.05)
            time.sleep(1)
        print("ready", flush=True)
        settle(1)
        print("after the terminal's Ctrl-C:", count, flush=True)
        seen = count
        os.kill(os.getppid(), signal.SIGINT)
        settle(seen + 1)
        print("after kill -INT of authvault:", count - seen, flush=True)
        """

    @Test func aTerminalsCtrlCReachesTheCommandOnceAndAKillOfAuthvaultToo() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let command = [cli.authvault, "exec", "--token-file", "--", PeerPython.path, "-c", Self.counter]
        let environment = cli.environment
        // ETX, the terminal's intr character: the line discipline sends SIGINT to the foreground process group.
        let session = try await OffPool.run {
            try PseudoTerminal.run(command, answers: [("ready", "\u{3}")], environment: environment)
        }
        #expect(session.answered == 1, "\(session.screen)")
        #expect(session.screen.contains("after the terminal's Ctrl-C: 1"), "\(session.screen)")
        #expect(session.screen.contains("after kill -INT of authvault: 1"), "\(session.screen)")
        #expect(session.status == 0, "\(session.screen)")
        cli.expectNoSecretLeaks()
    }
}
