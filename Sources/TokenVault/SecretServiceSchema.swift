internal import CSecret

/// Our item schema in the Secret Service. Items carry `xdg:schema = org.authvault.Credential` plus these
/// attributes, so `secret-tool lookup application authvault profile work` finds them and nothing else matches.
enum SecretServiceSchema {
    static let name = "org.authvault.Credential"
    static let application = "authvault"

    enum Attribute {
        static let application = "application"
        static let profile = "profile"
        static let userPool = "user-pool"
        static let clientId = "client-id"
        static let all = [application, profile, userPool, clientId]
    }

    /// Built once; libsecret only reads it.
    static let shared = SchemaPointer()

    final class SchemaPointer: @unchecked Sendable {
        let pointer: OpaquePointer
        init() {
            let definition = authvault_string_table_new()
            // A NULL value is SECRET_SCHEMA_ATTRIBUTE_STRING (0).
            for attribute in Attribute.all { authvault_string_table_insert(definition, attribute, nil) }
            pointer = authvault_secret_schema_newv(SecretServiceSchema.name, SECRET_SCHEMA_NONE, definition)
            authvault_g_hash_table_unref(definition)
        }
    }
}

/// An attribute set for a search or a new item, as the GHashTable libsecret takes.
struct SecretAttributes: Sendable {
    var values: [String: String]

    /// Everything of ours.
    static var application: SecretAttributes {
        SecretAttributes(values: [SecretServiceSchema.Attribute.application: SecretServiceSchema.application])
    }

    static func profile(_ profile: String, binding: ProfileBinding?) -> SecretAttributes {
        var attributes = application
        attributes.values[SecretServiceSchema.Attribute.profile] = profile
        if let binding {
            attributes.values[SecretServiceSchema.Attribute.userPool] = binding.userPoolId
            attributes.values[SecretServiceSchema.Attribute.clientId] = binding.clientId
        }
        return attributes
    }

    func withTable<R>(_ body: (OpaquePointer) throws(VaultError) -> R) throws(VaultError) -> R {
        let table = authvault_string_table_new()!
        defer { authvault_g_hash_table_unref(table) }
        for (key, value) in values { authvault_string_table_insert(table, key, value) }
        return try body(table)
    }
}
