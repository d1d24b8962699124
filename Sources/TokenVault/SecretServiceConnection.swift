import AuthCrypto
internal import CSecret

/// The Secret Service and its default collection, for the length of one job on the job's thread. The collection
/// proxy is made fresh for every job (the service is opened without loading collections, so libsecret keeps no
/// cached instance), which makes its `Locked` property the service's current answer, not a stale copy.
final class SecretServiceConnection {
    private let service: OpaquePointer
    private let collection: OpaquePointer
    private let cancellable: CallCancellable
    let collectionPath: String

    /// The default collection (alias "default"); never a collection of our own.
    init(cancellable: CallCancellable) throws(VaultError) {
        self.cancellable = cancellable
        var error: UnsafeMutablePointer<GError>?
        guard let service = authvault_secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, cancellable.pointer, &error)
        else {
            throw SecretServiceError.vaultError(taking: error, stage: .connecting, cancellable: cancellable)
        }
        guard
            let collection = authvault_secret_collection_for_alias_sync(
                service, "default", SECRET_COLLECTION_NONE, cancellable.pointer, &error)
        else {
            authvault_g_object_unref(UnsafeMutableRawPointer(service))
            if error != nil {
                throw SecretServiceError.vaultError(taking: error, stage: .connecting, cancellable: cancellable)
            }
            throw .unavailable(
                "the Secret Service has no default collection; create one (for example the 'Login' "
                    + "keyring in Seahorse)")
        }
        self.service = service
        self.collection = collection
        // A SecretCollection is a GDBusProxy for the collection's object.
        collectionPath = String(cString: authvault_g_dbus_proxy_get_object_path(collection))
    }

    deinit {
        authvault_g_object_unref(UnsafeMutableRawPointer(collection))
        authvault_g_object_unref(UnsafeMutableRawPointer(service))
    }

    var isLocked: Bool { authvault_secret_collection_get_locked(collection) != 0 }

    var label: String {
        guard let label = authvault_secret_collection_get_label(collection) else { return "" }
        defer { authvault_g_free(label) }
        return String(cString: label)
    }

    /// A human-readable name for status output and errors.
    var collectionDescription: String { "default collection '\(label)' (\(collectionPath))" }

    /// Asks the Secret Service to unlock the collection with its own prompt. True when it was unlocked.
    func unlockWithPrompt() throws(VaultError) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        var unlocked: UnsafeMutablePointer<GList>?
        let objects = authvault_g_list_append(nil, UnsafeMutableRawPointer(collection))
        defer { authvault_g_list_free(objects) }
        let count = authvault_secret_service_unlock_sync(service, objects, cancellable.pointer, &unlocked, &error)
        authvault_object_list_free(unlocked)
        if let error { throw SecretServiceError.vaultError(taking: error, stage: .operating, cancellable: cancellable) }
        return count > 0
    }

    struct Item {
        var attributes: [String: String]
        var secret: SecretBytes?
    }

    /// Our items in the default collection that match `attributes`, with their secrets when `loadSecrets`.
    func items(matching attributes: SecretAttributes, loadSecrets: Bool) throws(VaultError) -> [Item] {
        let flags =
            loadSecrets
            ? SecretSearchFlags(SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_LOAD_SECRETS.rawValue)
            : SECRET_SEARCH_ALL
        return try withItems(matching: attributes, flags: flags) { itemPointer in
            Item(attributes: Self.attributes(of: itemPointer), secret: loadSecrets ? Self.secret(of: itemPointer) : nil)
        }
    }

    /// Creates or replaces the item with exactly these attributes.
    func store(_ secret: SecretBytes, label: String, attributes: SecretAttributes) throws(VaultError) {
        let value = secret.withUnsafeBytes { bytes in
            authvault_secret_value_new(
                bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count,
                "application/json")
        }
        defer { authvault_secret_value_unref(UnsafeMutableRawPointer(value)) }
        var error: UnsafeMutablePointer<GError>?
        let item = try attributes.withTable { (table) throws(VaultError) in
            authvault_secret_item_create_sync(
                collection, SecretServiceSchema.shared.pointer, table, label, value,
                SECRET_ITEM_CREATE_REPLACE, cancellable.pointer, &error)
        }
        guard let item else {
            throw SecretServiceError.vaultError(taking: error, stage: .operating, cancellable: cancellable)
        }
        authvault_g_object_unref(UnsafeMutableRawPointer(item))
    }

    /// Deletes every item matching `attributes` from the default collection.
    func delete(matching attributes: SecretAttributes) throws(VaultError) {
        var failure: VaultError?
        _ = try withItems(matching: attributes, flags: SECRET_SEARCH_ALL) { itemPointer in
            guard failure == nil else { return () }
            var error: UnsafeMutablePointer<GError>?
            if authvault_secret_item_delete_sync(itemPointer, cancellable.pointer, &error) == 0 {
                failure = SecretServiceError.vaultError(taking: error, stage: .operating, cancellable: cancellable)
            }
        }
        if let failure { throw failure }
    }

    private func withItems<T>(
        matching attributes: SecretAttributes, flags: SecretSearchFlags,
        _ body: (OpaquePointer) -> T
    ) throws(VaultError) -> [T] {
        var error: UnsafeMutablePointer<GError>?
        let list = try attributes.withTable { (table) throws(VaultError) in
            authvault_secret_collection_search_sync(
                collection, SecretServiceSchema.shared.pointer, table, flags,
                cancellable.pointer, &error)
        }
        if let error { throw SecretServiceError.vaultError(taking: error, stage: .operating, cancellable: cancellable) }
        defer { authvault_object_list_free(list) }
        var results: [T] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                results.append(body(OpaquePointer(data)))
            }
            node = current.pointee.next
        }
        return results
    }

    private static func attributes(of item: OpaquePointer) -> [String: String] {
        guard let table = authvault_secret_item_get_attributes(item) else { return [:] }
        defer { authvault_g_hash_table_unref(table) }
        var result: [String: String] = [:]
        for name in SecretServiceSchema.Attribute.all {
            if let value = authvault_g_hash_table_lookup(table, name) {
                result[name] = String(cString: value.assumingMemoryBound(to: CChar.self))
            }
        }
        return result
    }

    private static func secret(of item: OpaquePointer) -> SecretBytes? {
        guard let value = authvault_secret_item_get_secret(item) else { return nil }
        defer { authvault_secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length = 0
        guard let bytes = authvault_secret_value_get(value, &length) else { return nil }
        return SecretBytes(UnsafeRawBufferPointer(start: bytes, count: length))
    }
}
