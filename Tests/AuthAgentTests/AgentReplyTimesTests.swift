import Testing

@testable import AuthAgent

/// An expiry in an agent's reply is read only within the times the direct path reads a server's
/// (`ServerTime.unixSeconds`): a token or set of credentials that expires beyond them is no reply at all, as one
/// from the identity pool would be; a status's times beyond them are dropped. A later `Duration` made from one
/// (`exec --token-file`'s rewrite, `exec --aws`'s warm-up) would trap otherwise.
@Suite struct AgentReplyTimesTests {
    static let outOfRange = ["1e300", "-1e300", "-1", "253402300800", "1.7976931348623157e308"]

    func token(expiringAt time: String) -> AgentReply? {
        let line = #"{"v":1,"ok":true,"token":"t","expiresAt":\#(time)}"#
        return AgentReply.parse(Array(line.utf8), answering: .token(profile: nil, kind: .access, target: nil))
    }

    func credentials(expiringAt time: String) -> AgentReply? {
        let line =
            #"{"v":1,"ok":true,"accessKeyId":"AKIA","secretAccessKey":"s","sessionToken":"t","expiresAt":\#(time),"#
            + #""identityId":"eu-west-1:1"}"#
        return AgentReply.parse(Array(line.utf8), answering: .awsCredentials(profile: nil, guest: false))
    }

    @Test(arguments: outOfRange) func aTokenExpiringOutOfRangeIsRefused(time: String) {
        #expect(token(expiringAt: time) == nil)
    }

    @Test(arguments: outOfRange) func credentialsExpiringOutOfRangeAreRefused(time: String) {
        #expect(credentials(expiringAt: time) == nil)
    }

    @Test func expiriesWithinRangeAreRead() throws {
        guard case .token(let read)? = token(expiringAt: "1700000000.5") else {
            Issue.record("a token expiring in 2023 is read")
            return
        }
        #expect(read.expiresAt == 1_700_000_000.5)
        guard case .awsCredentials(let set)? = credentials(expiringAt: "253402300799") else {
            Issue.record("credentials expiring at the end of 9999 are read")
            return
        }
        #expect(set.expiresAt == 253_402_300_799)
        guard case .token(let without)? = token(expiringAt: "null") else {
            Issue.record("a token without an expiry is read")
            return
        }
        #expect(without.expiresAt == nil)
    }

    @Test func aStatusDropsItsTimesOutOfRange() {
        let line =
            #"{"v":1,"ok":true,"profiles":[{"profile":"p","state":"s","accessTokenExpiresAt":1e300,"#
            + #""idTokenExpiresAt":1700000000}]}"#
        guard case .status(let profiles)? = AgentReply.parse(Array(line.utf8), answering: .status(profile: nil)) else {
            Issue.record("the status is read")
            return
        }
        #expect(profiles.map(\.accessTokenExpiresAt) == [nil] && profiles.map(\.idTokenExpiresAt) == [1_700_000_000])
    }
}
