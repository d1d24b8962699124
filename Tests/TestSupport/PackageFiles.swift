import Foundation

/// Files of the package itself (Examples/, .build/debian-tools/, ...), found from this source file's place in it,
/// so a test reads what a user would copy and runs the tools Scripts/install-deps.sh put there.
public enum PackageFiles {
    /// The package's root directory.
    public static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// `relative` (e.g. `Examples/git/gitconfig`) inside the package.
    public static func path(_ relative: String) -> String {
        root + "/" + relative
    }

    /// The text of a package file.
    public static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }
}
