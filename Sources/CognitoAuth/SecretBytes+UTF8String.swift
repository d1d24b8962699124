import AuthCrypto

extension SecretBytes {
    /// The secret as text, for the request body or header it has to go into.
    var utf8String: String {
        withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
