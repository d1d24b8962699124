import Foundation
import TestSupport
import Testing

@testable import SecureFiles

@Suite struct SecureFileTests {
    @Test func writeCreatesPrivateFileAndReadsBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("data")
        try SecureFile.write(Array("hello".utf8), to: path)
        #expect(try SecureFile.read(path) == Array("hello".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func replaceLeavesNoTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("data")
        for round in 0..<5 { try SecureFile.write(Array("round \(round)".utf8), to: path) }
        #expect(try SecureFile.read(path) == Array("round 4".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["data"])
    }

    /// A change marker: the given nanosecond time, and still a private, whole, atomic replacement without fsync.
    @Test func aMarkerCarriesTheGivenModificationTime() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("marker")
        let moment = (seconds: 1_800_000_000, nanoseconds: 123_456_789)
        for round in 0..<3 {
            try SecureFile.write(Array("round \(round)".utf8), to: path, modificationTime: moment, durable: false)
        }
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mtim.tv_sec == moment.seconds && info.st_mtim.tv_nsec == moment.nanoseconds)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try SecureFile.read(path) == Array("round 2".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["marker"])
    }

    @Test func missingFileReadsAsNil() throws {
        let directory = try TemporaryDirectory()
        #expect(try SecureFile.read(directory.appending("absent")) == nil)
    }

    @Test func fileReadableByOthersIsRefusedUnlessAllowed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("data")
        try SecureFile.write(Array("x".utf8), to: path)
        chmod(path, 0o644)
        #expect(throws: FileSystemError.unsafePermissions(path: path, mode: 0o100644, expected: 0o600)) {
            try SecureFile.read(path)
        }
        #expect(try SecureFile.read(path, trust: .ownerWritable) == Array("x".utf8))
        let message = FileSystemError.unsafePermissions(path: path, mode: 0o100644, expected: 0o600).description
        #expect(message.contains("chmod 0600"))
    }

    @Test func writeIntoMissingDirectoryFailsAndCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("sub/data")
        // The directory does not exist: the write must fail and create nothing.
        #expect(throws: FileSystemError.self) { try SecureFile.write(Array("new".utf8), to: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func removeIsIdempotent() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("data")
        try SecureFile.write(Array("x".utf8), to: path)
        try SecureFile.remove(path)
        try SecureFile.remove(path)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func privateDirectoryIsCreatedWithMode0700AndCheckedWhenPresent() throws {
        let directory = try TemporaryDirectory()
        let nested = directory.appending("a/b/c")
        try PrivateDirectory.create(nested)
        for path in [directory.appending("a"), directory.appending("a/b"), nested] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700)
        }
        chmod(nested, 0o755)
        #expect(throws: FileSystemError.self) { try PrivateDirectory.create(nested) }
    }

    /// Another user makes the directory (0777) between the check and `mkdir`: the EEXIST is checked like a directory
    /// that was there, never trusted as new; the parents made before it are ours and 0700.
    @Test func aDirectoryMadeByAnotherPartyJustBeforeMkdirIsChecked() throws {
        let directory = try TemporaryDirectory()
        let nested = directory.appending("a/b")
        var raced: [String] = []
        #expect {
            try PrivateDirectory.create(nested) { path in
                guard path == nested else { return }
                raced.append(path)
                mkdir(path, 0o777)
                chmod(path, 0o777)
            }
        } throws: { error in
            guard case FileSystemError.unsafePermissions(let path, let mode, _)? = error as? FileSystemError else {
                return false
            }
            return path == nested && mode & 0o777 == 0o777
        }
        #expect(raced == [nested], "the other party made the directory just before mkdir")
        let parent = try FileManager.default.attributesOfItem(atPath: directory.appending("a"))
        #expect((parent[.posixPermissions] as? Int) == 0o700)

        // The same race with a private directory: accepted, as one that was there is.
        let other = directory.appending("a/c")
        try PrivateDirectory.create(other) { path in mkdir(path, 0o700) }
    }

    /// A socket's directory must be the directory itself: a link to a private directory passes only when links
    /// are followed.
    @Test func aLinkToAPrivateDirectoryIsRefusedWhenLinksAreNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let target = directory.appending("target")
        let link = directory.appending("link")
        try PrivateDirectory.create(target)
        #expect(symlink(target, link) == 0)
        try PrivateDirectory.checkPrivate(link)
        #expect(throws: FileSystemError.notADirectory(path: link)) {
            try PrivateDirectory.checkPrivate(link, followingLinks: false)
        }
        try PrivateDirectory.checkPrivate(target, followingLinks: false)
    }

    @Test func pathArithmetic() {
        #expect(FilePath.parent(of: "/a/b/c") == "/a/b")
        #expect(FilePath.parent(of: "/a") == "/")
        #expect(FilePath.parent(of: "a") == ".")
        #expect(FilePath.join("/a/", "b") == "/a/b")
        #expect(FilePath.join("/a", "b") == "/a/b")
    }
}
