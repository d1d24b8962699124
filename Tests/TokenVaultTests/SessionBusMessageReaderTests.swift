import AuthCrypto
import CDBus
import Testing

@testable import TokenVault

/// The plain read's secret is `ay`; a reply with an array of another type where it should be (a service that
/// misbehaves, or one that is not the Secret Service) is a reply of another shape, which sends the read to libsecret,
/// never a libdbus argument check that ends the process. The messages are built here with libdbus itself.
@Suite struct SessionBusMessageReaderTests {
    /// A message whose arguments `write` appends, read by `read`.
    func read<T>(_ write: (OpaquePointer) -> Void, _ read: (inout MessageReader) -> T?) throws -> T? {
        try #require(authvault_dbus_load_error() == nil, "libdbus-1.so.3, as the plain read needs")
        let message = try #require(authvault_dbus_message_new_method_call("org.example", "/", "org.example.I", "M"))
        defer { authvault_dbus_message_unref(message) }
        write(message)
        var reader = MessageReader(message: message)
        return read(&reader)
    }

    @Test func anArrayOfBytesIsTheSecret() throws {
        let secret = try read({ message in
            var arguments = DBusMessageIter()
            var array = DBusMessageIter()
            authvault_dbus_message_iter_init_append(message, &arguments)
            _ = authvault_dbus_message_iter_open_container(&arguments, Int32(DBUS_TYPE_ARRAY), "y", &array)
            for var byte in Array("record".utf8) {
                _ = authvault_dbus_message_iter_append_basic(&array, Int32(DBUS_TYPE_BYTE), &byte)
            }
            _ = authvault_dbus_message_iter_close_container(&arguments, &array)
        }) { $0.secretBytes() }
        #expect(secret == SecretBytes(utf8: "record"))
    }

    @Test func anArrayOfAnotherTypeIsNoSecret() throws {
        #expect(
            try read({
                var writer = MessageWriter(message: $0)
                writer.objectPaths(["/a", "/b"])
            }) { $0.secretBytes() } == nil)
        #expect(
            try read({
                var writer = MessageWriter(message: $0)
                writer.objectPaths([])
            }) { $0.secretBytes() } == nil)
        #expect(
            try read({
                var writer = MessageWriter(message: $0)
                writer.stringDictionary(["k": "v"])
            }) { $0.secretBytes() } == nil)
        #expect(
            try read({
                var writer = MessageWriter(message: $0)
                writer.string("s")
            }) { $0.secretBytes() } == nil)
    }
}
