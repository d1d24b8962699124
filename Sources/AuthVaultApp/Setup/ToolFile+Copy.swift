import SecureFiles

extension ToolFile {
    /// Runs `edit` on a private copy of the file (in a new 0700 directory, removed afterwards; no copy's file when
    /// this one does not exist), for a tool that edits its own files: the copy's bytes can then replace the file in
    /// one atomic rename, and nothing the tool does touches the file itself.
    func editedCopy<Result>(_ edit: (String) throws(SetupError) -> Result) throws(SetupError) -> (
        contents: [UInt8], result: Result
    ) {
        let directory: String
        do { directory = try PrivateDirectory.createUnique(in: "/tmp", prefix: "authvault-setup.") } catch {
            throw .file(path: path, reason: "cannot make a private copy: \(error)")
        }
        // With what a tool that failed may have left beside the copy (its lock file).
        defer { try? PrivateDirectory.remove(directory) }
        let copy = FilePath.join(directory, "config")
        if let contents {
            do { try SecureFile.write(contents, to: copy, durable: false) } catch {
                throw .file(path: path, reason: "its private copy: \(error)")
            }
        }
        let result = try edit(copy)
        do {
            return (try SecureFile.read(copy, trust: .ownerWritable) ?? [], result)
        } catch {
            throw .file(path: path, reason: "its private copy: \(error)")
        }
    }
}
