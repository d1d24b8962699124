import Foundation
import HTTPTransport
import Testing

extension HTTPTransportTests {
    /// What an error must not show of a request: every form of what its credential headers carry.
    @Suite struct RequestCredentials {
        @Test func basicGivesTheValueItsBase64AndTheDecodedPair() {
            // YWxpY2U6czNjcmV0 is base64("alice:s3cret").
            let request = HTTPRequest(
                url: "https://idp.example/token",
                headers: [
                    HTTPHeader(name: "content-type", value: "application/json"),
                    HTTPHeader(name: "AUTHORIZATION", value: "Basic YWxpY2U6czNjcmV0"),
                ])
            #expect(
                Array(request.credentials.prefix(5)) == [
                    "Basic YWxpY2U6czNjcmV0", "YWxpY2U6czNjcmV0", "alice:s3cret", "s3cret", "s3cret",
                ])
        }

        @Test func bearerAndProxyCredentialsAreNamedWhateverTheScheme() {
            let request = HTTPRequest(
                url: "https://idp.example/userinfo",
                headers: [
                    HTTPHeader(name: "Authorization", value: "Bearer eyJ.token"),
                    HTTPHeader(name: "Proxy-Authorization", value: "opaque"),
                ])
            #expect(request.credentials == ["Bearer eyJ.token", "eyJ.token", "opaque"])
        }

        @Test func aRequestWithoutCredentialHeadersHasNone() {
            #expect(
                HTTPRequest(url: "https://idp.example/", headers: [HTTPHeader(name: "Accept", value: "a")]).credentials
                    .isEmpty)
        }
    }

    /// The one redactor, through a request that knows its secrets: a form field and a Basic credential, echoed in
    /// every form a server may use, leave nothing of either.
    @Suite struct Redaction {
        static let deviceCode = "DEV/CODE+SECRET=="
        static let clientSecret = "machine+secret/9=x ü"
        static var request: HTTPRequest {
            let pair = "machine-client:" + percent(clientSecret, lowerCase: false)
            return HTTPRequest(
                method: "POST", url: "https://idp.example/token",
                headers: [
                    HTTPHeader(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
                ], body: Array("device_code=\(percent(deviceCode, lowerCase: false))".utf8), secrets: [deviceCode])
        }

        /// Percent-encoding of every byte but `keep` (nil: every byte but the unreserved ones).
        static func percent(_ text: String, lowerCase: Bool, keep: ((UInt8) -> Bool)? = nil) -> String {
            let unreserved = { (byte: UInt8) in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("-._~".utf8).contains(byte)
            }
            return text.utf8.map { byte in
                byte < 0x80 && (keep ?? unreserved)(byte)
                    ? String(UnicodeScalar(byte)) : String(format: lowerCase ? "%%%02x" : "%%%02X", byte)
            }.joined()
        }

        /// Every form of `secret` the issue names: raw, percent-encoded (upper and lower hex, everything escaped,
        /// form-encoding with `+`, only some bytes escaped), base64 and base64url.
        static func forms(of secret: String) -> [String] {
            let formEncoded = percent(secret, lowerCase: false).replacingOccurrences(of: "%20", with: "+")
            let base64 = Data(secret.utf8).base64EncodedString()
            return [
                secret, percent(secret, lowerCase: false), percent(secret, lowerCase: true), formEncoded,
                percent(secret, lowerCase: true) { _ in false },
                percent(secret, lowerCase: false) { $0 != UInt8(ascii: "/") },
                percent(secret, lowerCase: true) { $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "+") },
                base64, base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"),
            ]
        }

        @Test func everyFormOfABodySecretAndOfTheBasicCredentialIsRedacted() {
            let redactor = Self.request.redactor
            let basic = String(Self.request.headers[0].value.dropFirst(6))
            let pairs = [
                "machine-client:" + Self.clientSecret,
                "machine-client:" + Self.percent(Self.clientSecret, lowerCase: true),
                "machine-client:" + Self.percent(Self.clientSecret, lowerCase: false),
            ]
            var echoes =
                Self.forms(of: Self.deviceCode) + Self.forms(of: Self.clientSecret) + [basic, "Basic " + basic]
            echoes += pairs.map { Data($0.utf8).base64EncodedString() } + pairs
            for echo in echoes {
                let shown = redactor.redact("invalid_grant: got \(echo) here")
                // The client id is no secret: a decoded pair may keep it.
                let redacted = [
                    "invalid_grant: got <redacted> here", "invalid_grant: got machine-client:<redacted> here",
                ]
                #expect(redacted.contains(shown), "\(echo) became \(shown)")
            }
            #expect(redactor.redact("device_code=DEV%2FCODE%2BSECRET%3D%3D&x=1") == "device_code=<redacted>&x=1")
            // The request's secrets are never shown by the request itself.
            for shown in [
                "\(Self.request)", String(reflecting: Self.request),
                "\(Mirror(reflecting: Self.request).children.map(\.value))",
            ] {
                #expect(!shown.contains("DEV") && !shown.contains("secret"), "\(shown)")
            }
        }

        /// A secret inside longer data that is then base64-encoded, at each of the three alignments: only the
        /// characters that also depend on the bytes around it (at most one group of four each side) remain.
        @Test func aSecretInsideLongerBase64IsRedactedAtEveryAlignment() {
            let redactor = SecretRedactor([Self.deviceCode])
            for prefix in ["token=", "token=a", "token=ab"] {
                let encoded = Data((prefix + Self.deviceCode + "&more").utf8).base64EncodedString()
                let parts = redactor.redact(encoded).components(separatedBy: SecretRedactor.placeholder)
                #expect(parts.count == 2, "\(prefix): \(parts)")
                let around = Data(prefix.utf8).base64EncodedString().count + 4
                #expect(parts.first!.count <= around && parts.last!.count <= 12, "\(prefix): \(parts)")
            }
        }

        @Test func textWithoutASecretIsLeftAsItIs() {
            let redactor = SecretRedactor(["s3cret-value-42"])
            for text in ["", "invalid_grant", "s3cret-value-4", "a % sign, %zz, %4", "ü and + and %2"] {
                #expect(redactor.redact(text) == text)
            }
            #expect(SecretRedactor([]).redact("anything") == "anything")
            // Overlapping and adjacent matches are one span.
            #expect(SecretRedactor(["abcdef12", "ef12345678"]).redact("x abcdef12345678 y") == "x <redacted> y")
        }
    }
}
