import FoundationEssentials
import NetworkHosts

extension HTTPRequest {
    /// The credentials the request's `Authorization` and `Proxy-Authorization` headers carry, in each form a server
    /// may echo back in an error: the whole value, what follows the scheme (a bearer token, Basic's base64), Basic's
    /// decoded `id:secret`, and the secret alone (as sent, and percent-decoded), whatever the scheme.
    public var credentials: [String] {
        headers.filter { ["authorization", "proxy-authorization"].contains($0.name.lowercased()) }.flatMap { header in
            let parts = header.value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return [header.value] }
            let credential = String(parts[1].drop { $0 == " " })
            guard parts[0].lowercased() == "basic",
                let decoded = Data(base64Encoded: credential).flatMap({ String(bytes: $0, encoding: .utf8) })
            else {
                return [header.value, credential]
            }
            return [header.value, credential, decoded] + Self.basicSecretForms(decoded)
        }
    }

    /// Every secret of the request, its body's (`secrets`) and its headers' (`credentials`), in one redactor.
    public var redactor: SecretRedactor {
        SecretRedactor(secrets + credentials)
    }

    /// The secret of Basic's `id:secret` (RFC 6749 section 2.3.1 form-encodes both first) as sent and decoded, and the
    /// whole credential's base64 with the secret inside raw, percent-encoded, or percent-encoded in lower-case hex:
    /// a server may decode the pair and encode it again its own way.
    private static func basicSecretForms(_ decoded: String) -> [String] {
        guard let colon = decoded.firstIndex(of: ":") else { return [] }
        let sentId = String(decoded[..<colon])
        let sentSecret = String(decoded[decoded.index(after: colon)...])
        let id = FormURLEncoding.percentDecoded(sentId) ?? sentId
        let secret = FormURLEncoding.percentDecoded(sentSecret) ?? sentSecret
        let encoded = FormURLEncoding.percentEncoded(secret)
        let lowerHex = encoded.split(separator: "%", omittingEmptySubsequences: false).enumerated().map { index, part in
            index == 0 ? String(part) : part.prefix(2).lowercased() + part.dropFirst(2)
        }.joined(separator: "%")
        let pairs = [id, FormURLEncoding.percentEncoded(id)].flatMap { id in
            [secret, encoded, lowerHex].map { id + ":" + $0 }
        }
        return [sentSecret, secret] + pairs.map { Data($0.utf8).base64EncodedString() }
    }
}
