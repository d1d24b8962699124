import AuthCrypto
import FoundationEssentials
import HTTPTransport
import NetworkHosts

/// How an app client proves itself at the token endpoint: HTTP Basic when it has a secret (RFC 6749 section 2.3.1:
/// the id and the secret each form-urlencoded first, so a `:` or `+` in them survives), `client_id` in the form
/// otherwise. One place for the browser sign-in's client and the machine sign-in's.
struct OAuthClientAuthentication: Sendable {
    let clientId: String
    let clientSecret: SecretBytes?

    /// The `Authorization` header's value for `clientId` and `secret`.
    static func basicCredentials(clientId: String, secret: String) -> String {
        let credentials = FormURLEncoding.percentEncoded(clientId) + ":" + FormURLEncoding.percentEncoded(secret)
        return "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    /// A form POST to `url` carrying the client's authentication; `secrets`, the form's secret values, are the
    /// request's (the Basic header's forms are its `credentials`).
    func formRequest(to url: String, _ form: [(name: String, value: String)], secrets: [String]) -> HTTPRequest {
        var form = form
        var headers = [
            HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            HTTPHeader(name: "Accept", value: "application/json"),
        ]
        if let clientSecret {
            headers.append(
                HTTPHeader(
                    name: "Authorization",
                    value: Self.basicCredentials(clientId: clientId, secret: clientSecret.utf8String)))
        } else {
            form.append(("client_id", clientId))
        }
        return HTTPRequest(
            method: "POST", url: url, headers: headers, body: Array(FormURLEncoding.encode(form).utf8), secrets: secrets
        )
    }
}
