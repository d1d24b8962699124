import Foundation
import TestSupport
import Testing

@testable import AuthVaultApp

/// `reset` walks the data directory by descriptor: a directory in it that another process (a container sharing the
/// directory) swaps for a link to somewhere else, after the walk saw a directory and before it opens it, is removed
/// as the link it has become; where it leads is untouched.
@Suite struct ResidueRemovalRaceTests {
    @Test func aDirectorySwappedForALinkBeforeItIsOpenedIsRemovedAsALink() throws {
        let home = try TemporaryDirectory(prefix: "residue-race")
        let data = home.appending("data")
        let outside = home.appending("precious")
        try FileManager.default.createDirectory(atPath: data + "/locks", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: data + "/locks/work.lock", contents: Data())
        _ = FileManager.default.createFile(atPath: outside + "/keep", contents: Data("mine\n".utf8))
        var removal = ResidueRemoval(configPath: home.appending("config.json"), dataDirectory: data)
        var swapped = false
        removal.beforeOpening = { path in
            guard path == data + "/locks", !swapped else { return }
            swapped = true
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside)
        }

        let (removed, failures) = removal.remove()
        #expect(swapped)
        #expect(failures.isEmpty, "\(failures)")
        #expect(removed == [data])
        #expect(!FileManager.default.fileExists(atPath: data))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: outside) == ["keep"],
            "nothing where the link led was removed")
        #expect(FileManager.default.contents(atPath: outside + "/keep") == Data("mine\n".utf8))
    }
}
