import Foundation
import Testing

@testable import TokenVault

/// The record read without Codable on every warm `authvault token` (`CredentialRecord.Stored.read`) agrees with the
/// `Codable` conformance JSONDecoder uses: the same record for everything it reads, and a refusal, which leaves the
/// record to JSONDecoder, for the rest.
@Suite struct RecordReadingTests {
    static let minimal = #""formatVersion":1,"revision":3,"profile":"work""#

    static let readAlike = [
        "{\(minimal)}",
        // Unknown keys, at every level; optional keys null.
        #"{"#
            + minimal
            + #","later":{"a":[1]},"identity":{"username":"u","federated":[{"provider":"G","userId":"1","x":0}],"#
            + #""y":null},"accessToken":null,"aws":null,"pendingRevocations":null}"#,
        #"{"# + minimal + #","identity":{"username":"u","federated":[]},"origin":"client-credentials","#
            + #""clockAnchor":{"bootID":"b","providerMinusBoot":-1.5},"binding":{"userPoolId":"p","clientId":"c"},"#
            + #""pendingRevocations":[]}"#,
        #"{"formatVersion":2.0,"revision":0,"profile":"\u00e9"}"#,
    ]

    static let refused = [
        "", "[]", #"{"revision":3,"profile":"work"}"#, #"{"formatVersion":1,"revision":3}"#,
        #"{"formatVersion":1,"revision":-1,"profile":"work"}"#, #"{"formatVersion":1,"revision":1.5,"profile":"w"}"#,
        #"{"formatVersion":1,"revision":1e17,"profile":"w"}"#, #"{"formatVersion":"1","revision":3,"profile":"w"}"#,
        "{\(minimal),\"accessToken\":5}", "{\(minimal),\"accessTokenExpiresAt\":\"soon\"}",
        "{\(minimal),\"origin\":\"elsewhere\"}", "{\(minimal),\"identity\":{\"username\":\"u\"}}",
        "{\(minimal),\"identity\":{\"username\":\"u\",\"federated\":[{\"provider\":\"G\"}]}}",
        "{\(minimal),\"clockAnchor\":{\"bootID\":\"b\"}}", "{\(minimal),\"binding\":[]}",
        "{\(minimal),\"aws\":{\"accessKeyId\":\"a\",\"secretAccessKey\":\"s\",\"sessionToken\":\"t\"}}",
        "{\(minimal),\"device\":{\"key\":\"k\",\"groupKey\":\"g\",\"password\":\"p\"}}",
        "{\(minimal),\"pendingRevocations\":[{\"refreshToken\":\"r\",\"origin\":\"browser\",\"lastTriedAt\":1}]}",
        "{\(minimal),\"profile\":\"twice\"}",
    ]

    func decoded(_ text: String) -> CredentialRecord.Stored? {
        try? JSONDecoder().decode(CredentialRecord.Stored.self, from: Data(text.utf8))
    }

    func read(_ bytes: [UInt8]) -> CredentialRecord.Stored? {
        bytes.withUnsafeBytes { CredentialRecord.Stored.read($0) }
    }

    @Test(arguments: readAlike) func readsWhatTheConformanceReads(_ text: String) {
        let read = read(Array(text.utf8))
        #expect(read != nil)
        #expect(read == decoded(text))
    }

    @Test(arguments: refused) func refusesTheRest(_ text: String) {
        #expect(read(Array(text.utf8)) == nil)
    }

    /// Every member is read: a record with all of them set reads back as the conformance wrote it. A member added to
    /// `Stored` fails here until the record below sets it and `Stored(fields:)` reads it.
    @Test func everyMemberIsRead() throws {
        var record = CredentialRecordTests().sample()
        record.refusedClockOffset = 7200
        record.sessionEndedReason = "signed out elsewhere"
        record.binding = ProfileBinding(userPoolId: "us-east-1_Pool1", clientId: "client")
        let serialized = Array(record.serialized().withUnsafeBytes { Data($0) })
        let stored = try #require(decoded(String(decoding: serialized, as: UTF8.self)))
        let unset = Mirror(reflecting: stored).children.filter { "\($0.value)" == "nil" }.compactMap(\.label)
        #expect(unset.isEmpty, "set these in the sample too: \(unset)")
        #expect(read(serialized) == stored)
    }
}
