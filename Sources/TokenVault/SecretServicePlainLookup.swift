import AuthCrypto

/// Reading our items over the Secret Service's `plain` transfer session: the secret crosses the user's own session
/// bus unencrypted (see SECURITY.md), which spares the Diffie-Hellman exchange, libsecret, GLib and their threads
/// on the warm path. Five calls: ReadAlias, SearchItems, OpenSession("plain"), GetSecrets, Close. Only unlocked
/// items of the default collection count, as for `SecretServiceConnection`; nil when none matched unlocked or the
/// service answered anything else (no bus, no service, a locked item), so the caller asks the full way through
/// libsecret, which tells locked from missing, may prompt, and words the error. For one job on its thread.
enum SecretServicePlainLookup {
    private static let service = "org.freedesktop.secrets"
    private static let servicePath = "/org/freedesktop/secrets"
    private static let serviceInterface = "org.freedesktop.Secret.Service"

    static func unlockedSecrets(
        matching attributes: SecretAttributes, cancellable: CallCancellable
    ) throws(VaultError) -> [SecretBytes]? {
        let milliseconds = Int32(min(max(cancellable.timeoutSeconds * 1000, 1), Double(Int32.max)))
        do {
            let bus = try SessionBusConnection()
            func call<T>(
                _ path: String, _ interface: String, _ member: String,
                write: (inout MessageWriter) -> Void = { _ in }, read: (inout MessageReader) -> T?
            ) throws(SessionBusConnection.Failure) -> T {
                // A job whose deadline passed makes no further call.
                guard !cancellable.isCancelled else { throw .timedOut }
                return try bus.call(
                    service, path, interface, member, timeoutMilliseconds: milliseconds, write: write, read: read)
            }
            let collection = try call(servicePath, serviceInterface, "ReadAlias") {
                $0.string("default")
            } read: {
                $0.string()
            }
            guard collection != "/" else { return nil }
            // libsecret matches the schema's name too (xdg:schema), as the items it stored carry it.
            var searched = attributes.values
            searched["xdg:schema"] = SecretServiceSchema.name
            let unlocked = try call(servicePath, serviceInterface, "SearchItems") {
                $0.stringDictionary(searched)
            } read: {
                $0.array { $0.string() }
            }
            let paths = unlocked.filter { $0.hasPrefix(collection + "/") }
            guard !paths.isEmpty else { return nil }

            let session = try call(servicePath, serviceInterface, "OpenSession") {
                $0.string("plain")
                $0.variantString("")
            } read: { reply -> String? in
                reply.skip()
                return reply.string()
            }
            defer {
                _ = try? call(session, "org.freedesktop.Secret.Session", "Close") { _ in () }
            }
            // a{o(oayays)}: item path to (session, parameters, value, content type).
            let secrets = try call(servicePath, serviceInterface, "GetSecrets") {
                $0.objectPaths(paths)
                $0.objectPath(session)
            } read: { reply in
                reply.array { entry in
                    entry.fields { fields -> (String, SecretBytes)? in
                        guard let path = fields.string() else { return nil }
                        let value = fields.fields { secret -> SecretBytes? in
                            secret.skip()
                            secret.skip()
                            return secret.secretBytes()
                        }
                        return value.map { (path, $0) }
                    }
                }
            }
            return secretsInOrder(secrets, asked: paths)
        } catch .timedOut {
            throw cancellable.isCancelled
                ? cancellable.cancellationError : .timedOut(seconds: cancellable.timeoutSeconds)
        } catch {
            return nil
        }
    }

    /// The secrets of the `asked` items in their order, from GetSecrets' answer; nil unless it holds every one: an
    /// item locked since SearchItems is left out, and saying "none" would tell the caller there is no session, when
    /// libsecret would unlock it.
    static func secretsInOrder(_ answer: [(String, SecretBytes)], asked: [String]) -> [SecretBytes]? {
        let byPath = [String: SecretBytes](answer, uniquingKeysWith: { first, _ in first })
        var secrets: [SecretBytes] = []
        for path in asked {
            guard let secret = byPath[path] else { return nil }
            secrets.append(secret)
        }
        return secrets
    }
}
