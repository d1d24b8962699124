import CognitoAuth
import FoundationEssentials
import Loopback
import NetworkHosts
import SecureFiles

#if canImport(Glibc)
    internal import Glibc
#endif

/// Checks of what a user types into `authvault configure`, so a typo is caught when it is made, not at sign-in.
public enum ProfileValidation {
    public static func profileName(_ name: String) throws(ConfigError) {
        guard isProfileName(name) else {
            throw .invalidValue(option: "profile", value: name, reason: "use " + profileNameRule)
        }
    }

    /// Whether `name` is one `configure` accepts: nothing a shell, a terminal or a file name reads specially.
    public static func isProfileName(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
        return !name.isEmpty && name.utf8.count <= 64 && allowed && !name.hasPrefix(".")
    }

    public static let profileNameRule = "1 to 64 letters, digits, '-', '_' or '.', not starting with '.'"

    /// `eu-west-1`, `us-gov-west-1`, `ap-southeast-2`: lowercase words joined by '-', ending in a number.
    public static func region(_ value: String) throws(ConfigError) {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        let wordsOK = parts.dropLast().allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isLowercaseLetter) }
        guard parts.count >= 3, wordsOK, let last = parts.last, !last.isEmpty, last.utf8.allSatisfy(isDigit) else {
            throw .invalidValue(option: "region", value: value, reason: "expected an AWS region such as eu-west-1")
        }
    }

    /// `us-east-1_AbC123`: the region, an underscore, then letters and digits.
    public static func userPoolId(_ value: String) throws(ConfigError) {
        let halves = value.split(separator: "_", omittingEmptySubsequences: false)
        guard halves.count == 2, (try? region(String(halves[0]))) != nil,
            !halves[1].isEmpty, halves[1].utf8.allSatisfy(isAlphanumeric)
        else {
            throw .invalidValue(
                option: "user-pool-id", value: value,
                reason: "expected REGION_ID as shown in the Cognito console, such as eu-west-1_AbC123xyz")
        }
    }

    /// A profile moved to another user pool keeps no URL given for the old one: its keys, issuer or API there would
    /// check the new pool's tokens against the old pool's, or send them to it. Each such URL must be given again
    /// (or cleared with '', for the new pool's default).
    public static func poolChange(from before: ProfileSettings?, to after: ProfileSettings) throws(ConfigError) {
        guard let old = before?.userPoolId, let new = after.userPoolId, old != new else { return }
        for (option, value) in [("jwks-url", after.jwksURL), ("issuer", after.issuer), ("endpoint", after.endpoint)] {
            guard let value, value.contains(old) else { continue }
            throw .invalidValue(
                option: option, value: value,
                reason: "it names the user pool \(old), and the profile now uses \(new); "
                    + "give the new pool's URL with --\(option) URL, or --\(option) '' for its default")
        }
    }

    public static func region(fromUserPoolId poolId: String) -> String? {
        guard let underscore = poolId.firstIndex(of: "_") else { return nil }
        return String(poolId[..<underscore])
    }

    /// Cognito's app client ids are letters and digits; another OpenID provider's may have `-`, `.`, `_` or `~` too.
    public static func clientId(_ value: String) throws(ConfigError) {
        guard !value.isEmpty, value.count <= 128,
            value.utf8.allSatisfy({ isAlphanumeric($0) || "-._~".utf8.contains($0) })
        else {
            throw .invalidValue(
                option: "client-id", value: value,
                reason: "expected the app client id: letters and digits (and - . _ ~)")
        }
    }

    /// A service URL: https, or plain http only to a loopback host (a local emulator). No fragment: paths are
    /// appended to some of these, and after a '#' they would never be sent.
    public static func serviceURL(_ value: String, option: String) throws(ConfigError) {
        guard let url = URL(string: value), url.scheme != nil, let host = url.host, !host.isEmpty, !value.contains("#")
        else {
            throw .invalidValue(
                option: option, value: value, reason: "expected an absolute URL such as https://example.com/")
        }
        guard ServiceURL.isPermitted(value) else {
            throw .invalidValue(option: option, value: value, reason: ServiceURL.rule)
        }
    }

    /// The Hosted UI's base URL: a service URL whose authority is a plain host (and port).
    public static func hostedUI(_ value: String) throws(ConfigError) {
        try serviceURL(value, option: "hosted-ui")
        guard ServiceURL(value) != nil else {
            throw .invalidValue(
                option: "hosted-ui", value: value,
                reason: "expected the Hosted UI's domain, such as https://example.auth.us-east-1.amazoncognito.com")
        }
    }

    /// An OAuth scope (RFC 6749 section 3.3): printable ASCII without space, '"' or '\\'.
    public static func scope(_ value: String) throws(ConfigError) {
        let allowed = value.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
        guard !value.isEmpty, allowed else {
            throw .invalidValue(
                option: "scopes", value: value,
                reason: "a scope is printable ASCII without spaces, quotes or backslashes")
        }
    }

    /// A registered callback for the loopback listener: checked by the listener's own parser (http, a loopback
    /// address or localhost, an explicit port), so configure accepts exactly what a sign-in can serve.
    public static func redirectURI(_ value: String) throws(ConfigError) {
        do {
            _ = try RegisteredRedirectURI(value)
        } catch {
            let problem = if case .invalidRedirectURI(_, let problem) = error { "\(problem)" } else { "\(error)" }
            throw .invalidValue(
                option: "redirect-uri", value: value,
                reason:
                    "\(problem); expected a loopback callback such as http://127.0.0.1:8400/callback, exactly as registered on the app client"
            )
        }
    }

    /// A CA bundle: an absolute path to a readable file that only its owner (this user or root) can change; checked
    /// now, so a mistake shows at configure time, and again before every request.
    public static func caBundle(_ value: String) throws(ConfigError) {
        guard value.hasPrefix("/") else {
            throw .invalidValue(option: "ca-bundle", value: value, reason: "give an absolute path")
        }
        guard access(value, R_OK) == 0 else {
            throw .invalidValue(option: "ca-bundle", value: value, reason: "the file cannot be read")
        }
        do {
            try FileTrust.ownerWritable.check(value)
        } catch {
            throw .invalidValue(option: "ca-bundle", value: value, reason: error.description)
        }
    }

    /// The directory a profile built in code keeps its files in: absolute, so they cannot follow the working
    /// directory of the moment; created when first written, mode 0700.
    public static func vaultDirectory(_ value: String) throws(ConfigError) {
        guard value.hasPrefix("/") else {
            throw .invalidValue(option: "vault-directory", value: value, reason: "give an absolute path")
        }
    }

    /// A host name or address, optionally with a port (what git and docker pass to a credential helper), and
    /// optionally a path prefix (`git.example.com/team`): the entry then names only requests under that path.
    public static func helperHost(_ value: String) throws(ConfigError) {
        if let problem = helperHostProblem(value) {
            throw .invalidValue(option: "helper-host", value: value, reason: problem)
        }
    }

    /// What is wrong with a helper host (after `normalizedHelperHost`), nil when nothing is.
    static func helperHostProblem(_ value: String) -> String? {
        let authority = value.prefix { $0 != "/" }
        guard value.utf8.count <= 255, HostPort(authority) != nil else {
            return
                "expected a host such as git.example.com or registry.example.com:5000, optionally with a path prefix such as git.example.com/team"
        }
        let path = value.dropFirst(authority.count)
        guard !path.isEmpty else { return nil }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: \.isEmpty) { return "a path prefix has no empty segments ('//')" }
        // git decodes the path it sends: an escaped slash or a NUL would make a prefix say other than it seems.
        if segments.contains(where: { $0.lowercased().contains("%2f") || $0.contains("%00") }) {
            return "a path prefix has no escaped '/' (%2F) or %00: git decodes the path before matching"
        }
        let decoded = segments.map { HelperHostEntry.decoded($0) }
        if decoded.contains(where: { $0 == "." || $0 == ".." }) {
            return "a path prefix has no '.' or '..' segments"
        }
        guard !decoded.contains(nil), segments.allSatisfy(isPathSegment) else {
            return "a path prefix takes letters, digits, -._~!$&()*+,;= and %XX escapes of UTF-8"
        }
        return nil
    }

    /// `host[:port]`, and with `allowingPath` an optional `/path-prefix`: segments of RFC 3986's unreserved,
    /// percent-encoded and sub-delimiter characters (no quote), none empty, `.` or `..`. Nothing that can end a
    /// line, a key or a section in the files these go into.
    public static func isHelperHost(_ value: String, allowingPath: Bool = true) -> Bool {
        let authority = value.prefix { $0 != "/" }
        guard value.utf8.count <= 255, HostPort(authority) != nil else { return false }
        let path = value.dropFirst(authority.count)
        guard !path.isEmpty else { return true }
        guard allowingPath else { return false }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy(isPathSegment)
    }

    /// A helper host as stored: its host lower-case (names are case-blind), its path prefix as given without the
    /// slashes before and after it (git sends the path without them): `Git.Example.com/acme/` is
    /// `git.example.com/acme`, `git.example.com/` the bare host.
    public static func normalizedHelperHost(_ value: String) -> String {
        let authority = value.prefix { $0 != "/" }
        var path = value.dropFirst(authority.count)
        while path.first == "/" { path = path.dropFirst() }
        while path.last == "/" { path = path.dropLast() }
        return authority.lowercased() + (path.isEmpty ? "" : "/" + path)
    }

    private static func isPathSegment(_ segment: Substring) -> Bool {
        guard !segment.isEmpty, segment != ".", segment != ".." else { return false }
        let bytes = Array(segment.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[(index + 1)...(index + 2)].allSatisfy(isHexDigit) else {
                    return false
                }
                index += 3
                continue
            }
            guard isAlphanumeric(byte) || "-._~!$&()*+,;=".utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    /// `us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6`, as the identity pool client parses it.
    public static func identityPoolId(_ value: String) throws(ConfigError) {
        do {
            _ = try IdentityPoolID(value)
        } catch {
            throw .invalidValue(
                option: "identity-pool-id", value: value,
                reason:
                    "expected REGION:GUID as shown in the Cognito console, such as us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6"
            )
        }
    }

    /// `arn:PARTITION:iam::ACCOUNT:role/NAME`: a role of the identity pool, by its ARN.
    public static func roleARN(_ value: String) throws(ConfigError) {
        let parts = value.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", !parts[1].isEmpty, parts[2] == "iam", parts[3].isEmpty,
            parts[4].count == 12, parts[4].utf8.allSatisfy(isDigit), parts[5].hasPrefix("role/"), parts[5].count > 5
        else {
            throw .invalidValue(
                option: "aws-role-arn", value: value,
                reason: "expected a role ARN such as arn:aws:iam::123456789012:role/NAME")
        }
    }

    /// Every value a profile's settings hold, by the rules `configure` checks them one by one: for settings built
    /// in code, which no option parsing has seen. The errors name each value by its option.
    public static func check(_ settings: ProfileSettings) throws(ConfigError) {
        if let region = settings.region { try self.region(region) }
        if let userPoolId = settings.userPoolId { try self.userPoolId(userPoolId) }
        if let clientId = settings.clientId { try self.clientId(clientId) }
        if let hostedUI = settings.hostedUI { try self.hostedUI(hostedUI) }
        let endpoints = settings.oauthEndpoints
        let urls = [
            ("endpoint", settings.endpoint), ("issuer", settings.issuer), ("jwks-url", settings.jwksURL),
            ("sign-out-uri", settings.signOutURI), ("identity-endpoint", settings.identityEndpoint),
            ("authorize-url", endpoints?.authorization), ("token-url", endpoints?.token),
            ("userinfo-url", endpoints?.userInfo), ("revoke-url", endpoints?.revocation),
            ("logout-url", endpoints?.logout),
        ]
        for case (let option, let url?) in urls { try serviceURL(url, option: option) }
        for uri in settings.redirectURIs ?? [] { try redirectURI(uri) }
        for host in settings.helperHosts ?? [] { try helperHost(host) }
        for scope in settings.scopes ?? [] { try self.scope(scope) }
        if let caBundle = settings.caBundle { try self.caBundle(caBundle) }
        if let identityPoolId = settings.identityPoolId { try self.identityPoolId(identityPoolId) }
        if let awsRoleARN = settings.awsRoleARN { try roleARN(awsRoleARN) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLowercaseLetter(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || isDigit(byte)
    }

    private static func isLowercaseLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || "abcdefABCDEF".utf8.contains(byte) }
}
