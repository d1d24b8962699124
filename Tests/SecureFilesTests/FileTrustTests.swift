import Foundation
import SecureFiles
import TestSupport
import Testing

/// Files that steer where tokens go may be read by all but changed only by this user or root; a vault file must be
/// this user's alone. Each refusal names the command that fixes it. (Ownership cases need root, as in CI.)
@Suite struct FileTrustTests {
    @Test(arguments: [0o664, 0o646, 0o666, 0o620])
    func writableByOthersIsRefusedWithTheChmod(mode: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("ca.pem")
        try SecureFile.write(Array("x".utf8), to: path)
        chmod(path, mode_t(mode))
        #expect(
            throws: FileSystemError.unsafePermissions(
                path: path, mode: 0o100000 | UInt32(mode), expected: UInt32(mode) & 0o755)
        ) {
            try SecureFile.read(path, trust: .ownerWritable)
        }
        #expect(throws: FileSystemError.self) { try FileTrust.ownerWritable.check(path) }
        let message = FileSystemError.unsafePermissions(path: path, mode: UInt32(mode), expected: UInt32(mode) & 0o755)
            .description
        #expect(message.contains("lets other users change it"))
        #expect(message.contains("chmod \("0" + String(mode & 0o755, radix: 8)) '\(path)'"))
    }

    @Test func readableByOthersIsTrustedButNotPrivate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("config.json")
        try SecureFile.write(Array("x".utf8), to: path)
        chmod(path, 0o644)
        try FileTrust.ownerWritable.check(path)
        #expect(throws: FileSystemError.self) { try FileTrust.private.check(path) }
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func anotherUsersFileIsRefusedWithTheChown() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("config.json")
        try SecureFile.write(Array("x".utf8), to: path)
        chown(path, 12345, 12345)
        for trust in [FileTrust.ownerWritable, .private] {
            #expect(throws: FileSystemError.foreignOwner(path: path, owner: 12345)) { try trust.check(path) }
        }
        #expect(throws: FileSystemError.foreignOwner(path: path, owner: 12345)) { try SecureFile.read(path) }
        let message = FileSystemError.foreignOwner(path: path, owner: 12345).description
        #expect(message.contains("belongs to user 12345"))
        #expect(message.contains("chown root '\(path)'"))
    }

    /// What a distribution installs: root's, not writable by others.
    @Test func aSystemBundleOwnedByRootIsTrusted() throws {
        try FileTrust.ownerWritable.check("/etc/ssl/certs/ca-certificates.crt")
    }
}
