import Testing

@testable import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// The one directory listing, by descriptor or by path: every name but `.` and `..`, a link listed as itself.
@Suite struct DirectoryDescriptorsTests {
    @Test func listsEveryNameByDescriptorAndByPathAndLeavesTheDescriptorOpen() throws {
        let directory = try Self.makeDirectory()
        defer { Self.removeDirectory(directory, names: ["a", "b c", "link", "sub"]) }
        for name in ["a", "b c"] { close(open(directory + "/" + name, O_CREAT | O_WRONLY, 0o600)) }
        symlink("/nonexistent", directory + "/link")
        mkdir(directory + "/sub", 0o700)
        let expected = ["a", "b c", "link", "sub"]
        #expect(try SystemCall.directoryEntries(atPath: directory).sorted() == expected)
        let descriptor = try SystemCall.openDirectory(directory, in: AT_FDCWD)
        defer { close(descriptor) }
        #expect(try SystemCall.directoryEntries(descriptor).sorted() == expected)
        #expect(fcntl(descriptor, F_GETFD) != -1)
    }

    @Test func aLinkToADirectoryIsListedByPathButNotOpenedWithoutFollowing() throws {
        let directory = try Self.makeDirectory()
        let link = directory + ".link"
        symlink(directory, link)
        defer {
            unlink(link)
            Self.removeDirectory(directory, names: [])
        }
        #expect(try SystemCall.directoryEntries(atPath: link) == [])
        #expect(throws: SystemCallError.self) { _ = try SystemCall.openDirectory(link, in: AT_FDCWD) }
    }

    @Test func aMissingDirectoryFailsWithItsErrorNumber() throws {
        let error = #expect(throws: SystemCallError.self) {
            _ = try SystemCall.directoryEntries(atPath: "/nonexistent/authvault")
        }
        #expect(error?.code == ENOENT)
    }

    private static func makeDirectory() throws -> String {
        var template = Array("/tmp/authvault-listing.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemCallError(call: "mkdtemp", code: errno) }
        return String(cString: made)
    }

    private static func removeDirectory(_ directory: String, names: [String]) {
        for name in names { unlink(directory + "/" + name) }
        rmdir(directory + "/sub")
        rmdir(directory)
    }
}
