/// Command lines as a POSIX shell (and botocore's and git's splitting) reads them.
public enum ShellWords {
    /// What a shell never reads as anything but part of a word.
    private static let plainScalars = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,".unicodeScalars)

    /// `word` unchanged when the shell would read it as one word, else in single quotes.
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy(plainScalars.contains)
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }

    public static func line(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }
}
