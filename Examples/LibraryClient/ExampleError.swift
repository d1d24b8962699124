import AuthStore
import AuthVaultApp
import HTTPTransport

/// Why the example stopped: the application's reason or the API call's, whose messages never hold a secret.
enum ExampleError: Error, CustomStringConvertible {
    case usage(String)
    case application(ApplicationError)
    case api(HTTPError)

    var description: String {
        switch self {
        case .usage(let message): "\(message)\n\(ExampleSettings.usage)"
        case .application(.store(.signInRequired(let reason))):
            "No usable session\(reason.map { " (\($0))" } ?? ""): sign in with 'authvault login'."
        case .application(let error): "\(error)"
        case .api(let error): "The API call: \(error)"
        }
    }

    /// As authvault's: 2 usage, 3 sign in, 4 vault locked, 5 network, 1 anything else.
    var exitStatus: Int32 {
        switch self {
        case .usage, .application(.invalidVariable): 2
        case .application(.store(.signInRequired)): 3
        case .application(.vault), .application(.store(.vault)): 4
        case .application(.store(.network)), .api: 5
        case .application: 1
        }
    }
}
