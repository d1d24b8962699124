import Foundation
import TestSupport
import Testing

@testable import SecureFiles

/// The private directories of `exec --token-file`: a new name each time, mode 0700, removed with their files.
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
}
