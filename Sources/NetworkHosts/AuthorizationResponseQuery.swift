/// The parameters of an OAuth authorization response as its redirect carries them in the query (RFC 6749 section
/// 4.1.2 and 4.1.2.1): the one parser of the callback, for the loopback listener and for the OAuth client (which
/// also reads callbacks pasted by hand). Each judges the result by its own rules; both read the same parameters.
public struct AuthorizationResponseQuery: Sendable, Equatable {
    public let state: String?
    public let code: String?
    public let error: String?
    public let errorDescription: String?

    public enum Failure: Error, Equatable {
        /// A `%` escape is broken, or a name or value is not UTF-8.
        case brokenEscape
        /// A parameter appears more than once, which RFC 6749 section 3.1 makes the response invalid for.
        case repeated(name: String)
    }

    /// - Parameter query: the query string without its `?` (and without a fragment).
    public init(_ query: some StringProtocol) throws(Failure) {
        guard let pairs = FormURLEncoding.decode(query) else { throw .brokenEscape }
        var parameters: [String: String] = [:]
        for (name, value) in pairs where parameters.updateValue(value, forKey: name) != nil {
            throw .repeated(name: name)
        }
        state = parameters["state"]
        code = parameters["code"]
        error = parameters["error"]
        errorDescription = parameters["error_description"]
    }
}
