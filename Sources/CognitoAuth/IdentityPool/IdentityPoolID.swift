/// An identity pool's id, `REGION:GUID` as the console shows it (`us-east-1:0c8e1f6a-...`). The region in front
/// names the service endpoint.
public struct IdentityPoolID: Sendable, Hashable, CustomStringConvertible {
    public let region: String
    /// The whole id, as Cognito's calls take it.
    public let rawValue: String

    public init(_ text: String) throws(CognitoError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, Self.isRegion(parts[0]), Self.isGUID(parts[1]) else {
            throw .invalidConfiguration(
                "the identity pool id '\(text.prefix(80))' is not of the form REGION:GUID "
                    + "(for example us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6)")
        }
        region = String(parts[0])
        rawValue = text
    }

    public var description: String { rawValue }

    /// `us-east-1`, `ap-southeast-2`, `us-gov-west-1`: lowercase words joined by dashes, the last one a number.
    private static func isRegion(_ text: Substring) -> Bool {
        let words = text.split(separator: "-", omittingEmptySubsequences: false)
        guard words.count >= 3, let last = words.last, last.allSatisfy(\.isASCIIDigit) else { return false }
        return words.dropLast().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isLowercase } }
    }

    /// Five groups of 8, 4, 4, 4 and 12 hexadecimal digits.
    private static func isGUID(_ text: Substring) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
