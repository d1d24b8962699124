import Foundation

/// Executables built alongside the test bundle (`swift build --build-tests` builds every product).
public enum BuiltProducts {
    /// The directory holding the test runner, which is also where SwiftPM puts the package's executables.
    public static var directory: String {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On some runners arguments[0] is inside the .xctest bundle.
        while directory.path.contains(".xctest") { directory = directory.deletingLastPathComponent() }
        return directory.path
    }

    public static func executable(_ name: String) -> String {
        "\(directory)/\(name)"
    }
}
