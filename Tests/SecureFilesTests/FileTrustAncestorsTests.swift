import Foundation
import SecureFiles
import TestSupport
import Testing

/// A program other tools run, and the files that name it, are trusted only when nobody but this user or root can
/// replace them: the file and every directory above it, as named and where links lead; a sticky directory (/tmp)
/// above what this user or root owns is safe.
@Suite struct FileTrustAncestorsTests {
    @Test func aFileInOwnDirectoriesUnderStickyTmpIsTrustedAndAMissingTailIsCheckedFromWhatExists() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("bin/tool")
        try FileManager.default.createDirectory(atPath: directory.appending("bin"), withIntermediateDirectories: true)
        try SecureFile.write(Array("x".utf8), to: path, mode: 0o755)
        try FileTrust.checkWithAncestors(path)
        try FileTrust.checkWithAncestors(directory.appending("bin/new/dir/file"))
    }

    @Test(arguments: [0o777, 0o775, 0o757, 0o770])
    func aDirectoryOthersCanWriteAnywhereAboveIsRefused(mode: Int) throws {
        let directory = try TemporaryDirectory()
        let shared = directory.appending("shared")
        try FileManager.default.createDirectory(atPath: shared + "/deep/bin", withIntermediateDirectories: true)
        try SecureFile.write(Array("x".utf8), to: shared + "/deep/bin/tool", mode: 0o755)
        chmod(shared, mode_t(mode))
        #expect(
            throws: FileSystemError.unsafePermissions(
                path: shared, mode: UInt32(0o40000 | mode), expected: UInt32(mode & 0o755))
        ) {
            try FileTrust.checkWithAncestors(shared + "/deep/bin/tool")
        }
        #expect(throws: FileSystemError.self, "a file still to be created there") {
            try FileTrust.checkWithAncestors(shared + "/deep/new")
        }
    }

    @Test func aStickyDirectoryIsSafeOnlyAboveWhatItsUserOwnsAndALinkIsFollowed() throws {
        let directory = try TemporaryDirectory()
        let sticky = directory.appending("sticky")
        try FileManager.default.createDirectory(atPath: sticky + "/mine", withIntermediateDirectories: true)
        chmod(sticky, 0o1777)
        chmod(sticky + "/mine", 0o755)
        try FileTrust.checkWithAncestors(sticky + "/mine/file")
        #expect(throws: FileSystemError.self, "a sticky directory is no safe leaf") {
            try FileTrust.checkWithAncestors(sticky)
        }

        let open = directory.appending("open")
        try FileManager.default.createDirectory(atPath: open + "/docker", withIntermediateDirectories: true)
        chmod(open, 0o777)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appending("link"), withDestinationPath: open + "/docker")
        // Where the link leads, as the kernel names it.
        #expect(
            throws: FileSystemError.unsafePermissions(
                path: (open as NSString).standardizingPath, mode: 0o40777, expected: 0o755)
        ) {
            try FileTrust.checkWithAncestors(directory.appending("link/config.json"))
        }
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aDirectoryAnotherUserOwnsIsRefused() throws {
        let directory = try TemporaryDirectory()
        let theirs = directory.appending("theirs")
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        chmod(theirs, 0o755)
        chown(theirs, 12345, 12345)
        #expect(throws: FileSystemError.foreignOwner(path: theirs, owner: 12345)) {
            try FileTrust.checkWithAncestors(theirs + "/tool")
        }
    }
}
