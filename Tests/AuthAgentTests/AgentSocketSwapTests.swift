import Foundation
import TestSupport
import Testing

@testable import AuthAgent

extension AgentSuites {
    /// The agent's socket gets its mode without following a link: a process that can write the socket's directory
    /// (a container given it) and swaps the socket for a link to a file of the user's, between bind and the mode
    /// being set, changes nothing of that file, and the agent refuses to start, naming the path.
    @Suite struct AgentSocketSwapTests {
        @Test func aSocketSwappedForALinkBeforeItsModeIsSetLeavesTheLinkedFileAloneAndTheAgentUnstarted() throws {
            let directory = try TemporaryDirectory(prefix: "socket-swap")
            let path = directory.appending("agent/agent.sock")
            let file = directory.appending("precious")
            try Data("mine".utf8).write(to: URL(fileURLWithPath: file))
            chmod(file, 0o600)
            var swapped = false

            #expect(throws: AgentServerError.notASocket(path: path)) {
                _ = try ListeningSocket.open(path: path, backlog: 8, mode: 0o666) { bound in
                    swapped = unlink(bound) == 0 && symlink(file, bound) == 0
                }
            }
            #expect(swapped)
            var status = stat()
            #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600, "the linked file's mode is unchanged")
            #expect(FileManager.default.contents(atPath: file) == Data("mine".utf8))
            #expect(
                AgentServerError.notASocket(path: path).description.contains("is not a socket; move it away"),
                "the error names the path and what to do")
            #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "what was swapped in is left")

            // The lock was let go: once the link is moved away, the agent starts.
            unlink(path)
            let socket = try ListeningSocket.open(path: path, backlog: 8)
            #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK && status.st_mode & 0o777 == 0o600)
            socket.stopListening()
        }
    }
}
