import SecureFiles

#if canImport(Glibc)
    internal import Glibc
#endif

extension ToolFile {
    /// Runs `edit` on a private copy of the file (in a new 0700 directory, removed afterwards; no copy's file when
    /// this one does not exist), for a tool that edits its own files: the copy's bytes can then replace the file in
    /// one atomic rename, and nothing the tool does touches the file itself.
    func editedCopy<Result>(_ edit: (String) throws(SetupError) -> Result) throws(SetupError) -> (
        contents: [UInt8], result: Result
    ) {
        var template = Array("/tmp/authvault-setup.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .file(path: path, reason: "cannot make a private copy: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        let copy = FilePath.join(directory, "config")
        defer {
            // A tool that failed may have left its lock file beside the copy.
            for name in [copy, copy + ".lock"] { unlink(name) }
            rmdir(directory)
        }
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
