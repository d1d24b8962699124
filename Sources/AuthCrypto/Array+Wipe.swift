extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros, then empties the array (keeping its capacity): for buffers that held a
    /// token. Best effort, like `SecretBytes`.
    public mutating func wipe() {
        withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        removeAll(keepingCapacity: true)
    }
}
