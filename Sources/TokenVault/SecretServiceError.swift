internal import CSecret

/// What a GError from libsecret or GDBus means to a vault caller. GLib's messages name buses, services and object
/// paths, never secrets, so they are kept as the detail.
enum SecretServiceError {
    /// Where the call was when it failed: before a connection to the service exists every failure means the
    /// service is not there for us.
    enum Stage { case connecting, operating }

    /// A failed call's error, which libsecret may leave unset; takes ownership of `error` and frees it.
    static func vaultError(
        taking error: UnsafeMutablePointer<GError>?, stage: Stage, cancellable: CallCancellable
    ) -> VaultError {
        guard let error else { return .io("the Secret Service failed without saying why") }
        return vaultError(taking: error, stage: stage, cancellable: cancellable)
    }

    /// Takes ownership of `error` and frees it.
    static func vaultError(
        taking error: UnsafeMutablePointer<GError>, stage: Stage, cancellable: CallCancellable
    ) -> VaultError {
        defer { authvault_g_error_free(error) }
        let domain = error.pointee.domain
        let code = error.pointee.code
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"

        if domain == authvault_g_io_error_quark() {
            if code == Int32(G_IO_ERROR_CANCELLED.rawValue) { return cancellable.cancellationError }
            if code == Int32(G_IO_ERROR_TIMED_OUT.rawValue) { return .timedOut(seconds: cancellable.timeoutSeconds) }
        }
        if domain == authvault_g_dbus_error_quark() {
            switch UInt32(code) {
            case G_DBUS_ERROR_NO_REPLY.rawValue, G_DBUS_ERROR_TIMEOUT.rawValue, G_DBUS_ERROR_TIMED_OUT.rawValue:
                return .timedOut(seconds: cancellable.timeoutSeconds)
            case G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue, G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue:
                return .unavailable("no Secret Service (org.freedesktop.secrets) on the session bus: \(message)")
            case G_DBUS_ERROR_DISCONNECTED.rawValue, G_DBUS_ERROR_NO_SERVER.rawValue,
                G_DBUS_ERROR_FILE_NOT_FOUND.rawValue:
                return .unavailable("cannot reach the session bus: \(message)")
            default:
                break
            }
        }
        if domain == authvault_secret_error_get_quark() && code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
            return .locked("the Secret Service refused: the collection is locked")
        }
        switch stage {
        case .connecting:
            return .unavailable("cannot connect to the Secret Service: \(message)")
        case .operating:
            return .io("the Secret Service failed: \(message)")
        }
    }
}
