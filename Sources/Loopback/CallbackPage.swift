/// The page shown in the browser tab that carried the redirect: small, self-contained HTML, every text escaped.
public struct CallbackPage: Sendable, Equatable {
    public var title: String
    public var message: String

    public init(title: String, message: String) {
        self.title = title
        self.message = message
    }

    /// "Signed in" with the caller's message, e.g. "Signed in as alice@example.com — you can close this tab."
    public static func success(_ message: String) -> CallbackPage {
        CallbackPage(title: "Signed in", message: message)
    }

    public static func failure(_ message: String) -> CallbackPage {
        CallbackPage(title: "Sign-in failed", message: message)
    }

    /// Sent when the caller never answers the browser (it let the callback go, or took longer than allowed).
    static let unanswered = CallbackPage(
        title: "Sign-in response received",
        message: "The terminal received the sign-in response. Return to it to see the result; you can close this tab.")

    static let denied = CallbackPage.failure(
        "The sign-in was not completed. Return to the terminal for details; you can close this tab.")

    static let notFound = CallbackPage(
        title: "Not found", message: "This address only receives the sign-in redirect.")

    static func badRequest(_ reason: CallbackMatcher.BadRequest) -> CallbackPage {
        let message =
            switch reason {
            case .stateMismatch:
                "This sign-in response does not belong to the sign-in in progress (its state does not match). "
                    + "Start the sign-in again from the terminal."
            case .missingCode: "This sign-in response carries no authorization code."
            case .malformedQuery: "This sign-in response is malformed."
            case .malformedRequest: "This request is not well-formed HTTP."
            case .notGET: "This address only answers GET requests."
            }
        return CallbackPage(title: "Bad request", message: message)
    }

    /// A request without `Host`, or for another name than the listener's (a page that re-pointed its own name at
    /// this machine).
    static func refused(_ refusal: ExpectedHost.Refusal) -> CallbackPage {
        switch refusal {
        case .missing: CallbackPage(title: "Bad request", message: "This request names no host.")
        case .other: CallbackPage(title: "Forbidden", message: "This address only answers requests for itself.")
        }
    }

    static let requestTimeout = CallbackPage(title: "Request timeout", message: "The request took too long to arrive.")
    static let headersTooLarge = CallbackPage(title: "Request too large", message: "The request headers are too large.")

    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Self.escape(title))</title>
        <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222;line-height:1.5}h1{font-size:1.4em}</style>
        </head><body><h1>\(Self.escape(title))</h1><p>\(Self.escape(message))</p></body></html>

        """
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
