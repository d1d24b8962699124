import AuthCrypto
internal import CDBus

/// A private connection to the user's session bus through libdbus, for one job on one thread: synchronous calls,
/// each bounded by its time-out, with no thread, main loop or GLib behind them (libsecret's GDBus starts three).
/// Used by the Secret Service's plain read; everything else goes through libsecret.
final class SessionBusConnection {
    enum Failure: Error {
        /// No reply within the time-out.
        case timedOut
        /// Any other failure: no bus, no service, an error reply, an answer of another shape. The D-Bus error name.
        case failed(String)
    }

    private let connection: OpaquePointer

    /// Connects to the session bus (DBUS_SESSION_BUS_ADDRESS, as every D-Bus client reads it) and says Hello.
    init() throws(Failure) {
        if let loadError = authvault_dbus_load_error() { throw .failed(String(cString: loadError)) }
        var error = DBusError()
        authvault_dbus_error_init(&error)
        guard let connection = authvault_dbus_bus_get_private(DBUS_BUS_SESSION, &error) else {
            throw Self.failure(taking: &error)
        }
        // A bus that goes away fails the call, never ends the process (libdbus's default for a bus connection).
        authvault_dbus_connection_set_exit_on_disconnect(connection, 0)
        self.connection = connection
    }

    deinit {
        authvault_dbus_connection_close(connection)
        authvault_dbus_connection_unref(connection)
    }

    /// Calls `member` with the arguments `write` appends, and reads the reply with `read`; nil from `read` means
    /// the reply had another shape.
    func call<T>(
        _ destination: String, _ path: String, _ interface: String, _ member: String, timeoutMilliseconds: Int32,
        write: (inout MessageWriter) -> Void = { _ in }, read: (inout MessageReader) -> T?
    ) throws(Failure) -> T {
        guard let message = authvault_dbus_message_new_method_call(destination, path, interface, member) else {
            throw .failed("out of memory")
        }
        defer { authvault_dbus_message_unref(message) }
        var writer = MessageWriter(message: message)
        write(&writer)
        var error = DBusError()
        authvault_dbus_error_init(&error)
        guard
            let reply = authvault_dbus_connection_send_with_reply_and_block(
                connection, message, timeoutMilliseconds, &error)
        else { throw Self.failure(taking: &error) }
        defer { authvault_dbus_message_unref(reply) }
        var reader = MessageReader(message: reply)
        guard let result = read(&reader) else { throw .failed("\(member) answered with unexpected arguments") }
        return result
    }

    private static func failure(taking error: inout DBusError) -> Failure {
        defer { authvault_dbus_error_free(&error) }
        let name = error.name.map { String(cString: $0) } ?? "an unnamed error"
        switch name {
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
            "org.freedesktop.DBus.Error.TimedOut":
            return .timedOut
        default:
            return .failed(name)
        }
    }
}

/// Appends a method call's arguments, in signature order.
struct MessageWriter {
    fileprivate var iterator = DBusMessageIter()

    init(message: OpaquePointer) { authvault_dbus_message_iter_init_append(message, &iterator) }
    private init() {}

    mutating func string(_ value: String) { basic(DBUS_TYPE_STRING, value) }
    mutating func objectPath(_ value: String) { basic(DBUS_TYPE_OBJECT_PATH, value) }

    /// `ao`
    mutating func objectPaths(_ values: [String]) {
        container(DBUS_TYPE_ARRAY, "o") { array in for value in values { array.objectPath(value) } }
    }

    /// `a{ss}`
    mutating func stringDictionary(_ values: [String: String]) {
        container(DBUS_TYPE_ARRAY, "{ss}") { array in
            for (key, value) in values {
                array.container(DBUS_TYPE_DICT_ENTRY, nil) { entry in
                    entry.string(key)
                    entry.string(value)
                }
            }
        }
    }

    /// `v` holding a string.
    mutating func variantString(_ value: String) {
        container(DBUS_TYPE_VARIANT, "s") { $0.string(value) }
    }

    // libdbus fails an append only when out of memory, which the call then reports as a malformed message.
    private mutating func basic(_ type: Int, _ value: String) {
        value.withCString { characters in
            var pointer: UnsafePointer<CChar>? = characters
            _ = authvault_dbus_message_iter_append_basic(&iterator, Int32(type), &pointer)
        }
    }

    private mutating func container(_ type: Int, _ signature: String?, _ body: (inout MessageWriter) -> Void) {
        var inner = MessageWriter()
        _ = authvault_dbus_message_iter_open_container(&iterator, Int32(type), signature, &inner.iterator)
        body(&inner)
        _ = authvault_dbus_message_iter_close_container(&iterator, &inner.iterator)
    }
}

/// Reads a reply's arguments in order; each read checks the type and moves on, nil when the type differs.
struct MessageReader {
    private var iterator = DBusMessageIter()

    init(message: OpaquePointer) { _ = authvault_dbus_message_iter_init(message, &iterator) }
    private init() {}

    /// A string or an object path.
    mutating func string() -> String? {
        let type = Int(authvault_dbus_message_iter_get_arg_type(&iterator))
        guard type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH else { return nil }
        var value: UnsafePointer<CChar>?
        authvault_dbus_message_iter_get_basic(&iterator, &value)
        advance()
        return value.map { String(cString: $0) }
    }

    /// Any one argument, unread.
    mutating func skip() { advance() }

    /// An array's elements, each read by `element`.
    mutating func array<T>(_ element: (inout MessageReader) -> T?) -> [T]? {
        inside(DBUS_TYPE_ARRAY) { array in
            var elements: [T] = []
            while authvault_dbus_message_iter_get_arg_type(&array.iterator) != Int32(DBUS_TYPE_INVALID) {
                guard let value = element(&array) else { return nil }
                elements.append(value)
            }
            return elements
        }
    }

    /// A struct's or a dictionary entry's fields, read by `body`.
    mutating func fields<T>(_ body: (inout MessageReader) -> T?) -> T? {
        let type = Int(authvault_dbus_message_iter_get_arg_type(&iterator))
        return inside(type == DBUS_TYPE_DICT_ENTRY ? DBUS_TYPE_DICT_ENTRY : DBUS_TYPE_STRUCT, body)
    }

    /// `ay` as secret bytes; the reply's own copy is overwritten with zeros once copied. An array of anything else is
    /// another shape: libdbus ends the process when asked for a fixed array of a type that is not fixed.
    mutating func secretBytes() -> SecretBytes? {
        guard Int(authvault_dbus_message_iter_get_arg_type(&iterator)) == DBUS_TYPE_ARRAY,
            Int(authvault_dbus_message_iter_get_element_type(&iterator)) == DBUS_TYPE_BYTE
        else { return nil }
        return inside(DBUS_TYPE_ARRAY) { array in
            var start: UnsafeMutableRawPointer?
            var count: Int32 = 0
            authvault_dbus_message_iter_get_fixed_array(&array.iterator, &start, &count)
            guard let start, count > 0 else { return SecretBytes([]) }
            defer { start.initializeMemory(as: UInt8.self, repeating: 0, count: Int(count)) }
            return SecretBytes(UnsafeRawBufferPointer(start: start, count: Int(count)))
        }
    }

    private mutating func inside<T>(_ type: Int, _ body: (inout MessageReader) -> T?) -> T? {
        guard Int(authvault_dbus_message_iter_get_arg_type(&iterator)) == type else { return nil }
        var inner = MessageReader()
        authvault_dbus_message_iter_recurse(&iterator, &inner.iterator)
        advance()
        return body(&inner)
    }

    private mutating func advance() { _ = authvault_dbus_message_iter_next(&iterator) }
}
