import AuthCrypto
import BoundedJSON
import Foundation
import Testing

extension BoundedJSONTests {
    /// Request bodies (Cognito's JSON 1.1 calls) are built as JSONValues and written by its writer.
    @Suite struct BuildingTests {
        @Test func literalsAndADictionaryWriteTheSameBytesEveryTime() {
            let body: [String: JSONValue] = [
                "Limit": 60, "ClientId": "client", "Enabled": true,
                "Attributes": .array([.object(["Value": "a\"b", "Name": "email"])]),
            ]
            let expected =
                #"{"Attributes":[{"Name":"email","Value":"a\"b"}],"ClientId":"client","Enabled":true,"Limit":60}"#
            #expect(String(decoding: JSONValue.object(body).bytes, as: UTF8.self) == expected)
        }

        @Test func whatIsWrittenIsJSONThatFoundationReadsBack() throws {
            let body = JSONValue.object(["USERNAME": "ünïcode\n\u{1}", "Limit": 60])
            let read = try #require(try JSONSerialization.jsonObject(with: Data(body.bytes)) as? [String: Any])
            #expect(read["USERNAME"] as? String == "ünïcode\n\u{1}")
            #expect(read["Limit"] as? Int == 60)
        }

        /// The sender redacts every secret of a body from error messages: none may be missed, however deep.
        @Test func everySecretInsideIsFoundAndNothingElse() {
            let password = SecretBytes(utf8: "not-a-real-password")
            let token = SecretBytes(utf8: "not-a-real-token")
            let body = JSONValue.object([
                "AuthParameters": .object(["USERNAME": "alice", "PASSWORD": .secret(password)]),
                "Logins": .array([.object(["provider": .secret(token)])]),
                "ClientId": "client",
            ])
            #expect(body.secrets == [password, token])
            #expect(JSONValue.object(["ClientId": "client", "Limit": 60]).secrets.isEmpty)
        }
    }
}
