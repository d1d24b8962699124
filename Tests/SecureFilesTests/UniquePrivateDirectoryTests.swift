import Foundation
import TestSupport
import Testing

@testable import SecureFiles

/// The private directories of `exec --token-file` and setup's private copies: a new name each time, mode 0700, made
/// only where others cannot tamper with them, and removed with their files without ever being led out by a link.
@Suite struct UniquePrivateDirectoryTests {
    @Test func eachIsNewPrivateAndGoesAwayWithItsFiles() throws {
        let parent = try TemporaryDirectory()
        let first = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-")
        let second = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-")
        #expect(first != second && (first as NSString).lastPathComponent.hasPrefix("job-"))
        let attributes = try FileManager.default.attributesOfItem(atPath: first)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        try SecureFile.write(Array("token".utf8), to: FilePath.join(first, "token"))
        try PrivateDirectory.remove(first)
        #expect(!FileManager.default.fileExists(atPath: first))
        try PrivateDirectory.remove(first)
        #expect(throws: FileSystemError.self) {
            _ = try PrivateDirectory.createUnique(in: parent.appending("missing"), prefix: "job-")
        }
    }

    /// Another user could rename or replace the new directory in a parent they can write that is not sticky.
    @Test(arguments: [0o777, 0o770, 0o757])
    func aParentOthersCanWriteWithoutTheStickyBitIsRefusedWithTheChmod(mode: Int) throws {
        let parent = try TemporaryDirectory()
        chmod(parent.path, mode_t(mode))
        let refusal = FileSystemError.unsafePermissions(
            path: parent.path, mode: UInt32(S_IFDIR) | UInt32(mode), expected: UInt32(mode) & 0o755)
        #expect(throws: refusal) { _ = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-") }
        #expect(refusal.description.contains("chmod 0\(String(mode & 0o755, radix: 8)) '\(parent.path)'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    /// /tmp: writable by all, but sticky, so only the directory's owner can rename or remove it.
    @Test func aStickyParentWritableByAllIsUsed() throws {
        let parent = try TemporaryDirectory()
        chmod(parent.path, 0o1777)
        let made = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-")
        try PrivateDirectory.remove(made)
        try PrivateDirectory.remove(try PrivateDirectory.createUnique(in: "/tmp", prefix: "authvault-test-"))
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func anotherUsersParentIsRefusedEvenWhenSticky() throws {
        let parent = try TemporaryDirectory()
        for mode in [0o755, 0o1777] {
            chmod(parent.path, mode_t(mode))
            chown(parent.path, 12345, 12345)
            #expect(throws: FileSystemError.foreignOwner(path: parent.path, owner: 12345)) {
                _ = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-")
            }
        }
    }

    /// The directory swapped for a link to another directory before `remove`: the link goes, what it leads to stays.
    @Test func aDirectorySwappedForALinkIsRemovedAsTheLinkLeavingItsTargetsFiles() throws {
        let parent = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try SecureFile.write(Array("keep".utf8), to: outside.appending("token"))
        let made = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-")
        try FileManager.default.removeItem(atPath: made)
        try FileManager.default.createSymbolicLink(atPath: made, withDestinationPath: outside.path)
        try PrivateDirectory.remove(made)
        #expect(FileManager.default.fileExists(atPath: outside.appending("token")))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: made)) == nil)
    }

    /// Swapped after it was listed: the files go from the directory that was listed, wherever it now is, and nothing
    /// of the same names where the link leads; the link is refused as not the directory.
    @Test func aDirectorySwappedForALinkDuringRemovalLeadsNowhere() throws {
        let parent = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try SecureFile.write(Array("keep".utf8), to: outside.appending("token"))
        let made = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-")
        try SecureFile.write(Array("token".utf8), to: FilePath.join(made, "token"))
        let moved = parent.appending("moved")
        #expect(throws: FileSystemError.notADirectory(path: made)) {
            try PrivateDirectory.remove(made) {
                rename(made, moved)
                symlink(outside.path, made)
            }
        }
        #expect(FileManager.default.fileExists(atPath: outside.appending("token")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: moved).isEmpty)
    }

    /// A file in the directory swapped for a link to a directory: the link goes, not what it leads to.
    @Test func aFileSwappedForALinkIsRemovedAsTheLink() throws {
        let parent = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try SecureFile.write(Array("keep".utf8), to: outside.appending("token"))
        let made = try PrivateDirectory.createUnique(in: parent.path, prefix: "job-")
        try FileManager.default.createSymbolicLink(
            atPath: FilePath.join(made, "token"), withDestinationPath: outside.path)
        try PrivateDirectory.remove(made)
        #expect(!FileManager.default.fileExists(atPath: made))
        #expect(FileManager.default.fileExists(atPath: outside.appending("token")))
    }
}
