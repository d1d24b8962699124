import AuthCrypto
internal import CSecret

/// Reading our items as `secret-tool lookup` does: one search by attributes on the service and one GetSecrets for
/// the unlocked paths, with no proxy object (and no property loads and signal subscriptions) per collection and
/// item. Only items of the default collection count, as for `SecretServiceConnection`. For one job on its thread.
enum SecretServiceLookup {
    /// The secrets of the unlocked items of the default collection that match `attributes`; nil when none matched
    /// unlocked, which may mean a locked collection (that answers like an empty one): the caller then asks the
    /// full way, which tells locked from missing.
    static func unlockedSecrets(
        matching attributes: SecretAttributes, cancellable: CallCancellable
    ) throws(VaultError) -> [SecretBytes]? {
        var error: UnsafeMutablePointer<GError>?
        guard let service = authvault_secret_service_get_sync(SECRET_SERVICE_NONE, cancellable.pointer, &error) else {
            throw SecretServiceError.vaultError(taking: error, stage: .connecting, cancellable: cancellable)
        }
        defer { authvault_g_object_unref(UnsafeMutableRawPointer(service)) }
        guard
            let alias = authvault_secret_service_read_alias_dbus_path_sync(
                service, "default", cancellable.pointer, &error)
        else {
            if error != nil {
                throw SecretServiceError.vaultError(taking: error, stage: .connecting, cancellable: cancellable)
            }
            return nil
        }
        let collectionPrefix = String(cString: alias) + "/"
        authvault_g_free(alias)

        var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        let searched = try attributes.withTable { (table) throws(VaultError) in
            authvault_secret_service_search_for_dbus_paths_sync(
                service, SecretServiceSchema.shared.pointer, table,
                cancellable.pointer, &unlocked, nil, &error)
        }
        defer { authvault_g_strfreev(unlocked) }
        guard searched != 0 else {
            throw SecretServiceError.vaultError(taking: error, stage: .operating, cancellable: cancellable)
        }
        var paths: [UnsafeMutablePointer<gchar>] = []
        var cursor = unlocked
        while let path = cursor?.pointee {
            if String(cString: path).hasPrefix(collectionPrefix) { paths.append(path) }
            cursor = cursor.map { $0 + 1 }
        }
        guard !paths.isEmpty else { return nil }

        let list = paths.map { UnsafePointer($0) as UnsafePointer<gchar>? } + [nil]
        let table = list.withUnsafeBufferPointer { buffer in
            authvault_secret_service_get_secrets_for_dbus_paths_sync(
                service, UnsafeMutablePointer(mutating: buffer.baseAddress),
                cancellable.pointer, &error)
        }
        guard let table else {
            throw SecretServiceError.vaultError(taking: error, stage: .operating, cancellable: cancellable)
        }
        defer { authvault_g_hash_table_unref(table) }
        return paths.compactMap { path in
            guard let value = authvault_g_hash_table_lookup(table, path) else { return nil }
            var length = 0
            guard let bytes = authvault_secret_value_get(OpaquePointer(value), &length) else { return nil }
            return SecretBytes(UnsafeRawBufferPointer(start: bytes, count: length))
        }
    }
}
