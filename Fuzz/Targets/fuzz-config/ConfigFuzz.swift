import AuthVaultApp
import Foundation
import FuzzSupport

/// The config file reader: the file decoded, each profile resolved and validated, the helper hosts read with the
/// agent's parser, and the file read without Codable checked against JSONDecoder's reading. The input is written to
/// a private file each time, as the store reads only files.
@main enum ConfigFuzz: FuzzTarget {
    static let path = NSTemporaryDirectory() + "/authvault-fuzz-config-\(getpid()).json"

    static func test(_ input: [UInt8]) {
        guard
            FileManager.default.createFile(atPath: path, contents: Data(input), attributes: [.posixPermissions: 0o600])
        else {
            fatalError("cannot write \(path)")
        }
        let store = ConfigStore(path: path)
        _ = try? store.helperHosts()
        guard let file = try? store.load() else { return }
        // The store reads most files without Codable (`JSONFields`); whatever it reads, JSONDecoder reads the same.
        guard (try? JSONDecoder().decode(ConfigFile.self, from: Data(input))) == file else {
            fatalError("the configuration's two readings differ")
        }
        for name in file.profiles.keys { _ = try? store.profile(named: name, in: file) }
    }
}
