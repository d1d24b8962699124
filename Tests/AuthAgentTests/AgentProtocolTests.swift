import AuthAgent
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// The wire protocol as a client written against the brief sees it: hand-written request lines, replies read
    /// with Foundation's JSON parser.
    @Suite struct AgentProtocolTests {
        @Test func answersHandWrittenRequestsPipelinedOnOneConnection() async throws {
            try await withAgent { agent in
                let stored = try #require(try await agent.profiles.storedAccessToken())
                let expiry = Int(agent.clock.reading) + 3600
                let path = agent.socketPath
                let lines = try await OffPool.run { () -> [String] in
                    let connection = try RawConnection(path: path)
                    // Five requests in one write, before reading anything: answered in order.
                    connection.send(
                        """
                        {"v":1,"op":"token","profile":"work","kind":"access"}
                        {"v":1,"op":"token","profile":"work"}
                        {"v":1,"op":"status"}
                        {"v":1,"op":"version"}
                        {"v":1,"op":"ping"}

                        """)
                    return try (0..<5).map { _ in try connection.readLine() }
                }
                for line in lines[0...1] {
                    let reply = try object(line)
                    #expect(reply["v"] as? Int == 1)
                    #expect(reply["ok"] as? Bool == true)
                    expectSecret(stored, equals: reply["token"] as? String, "the reply's token")
                    #expect(reply["expiresAt"] as? Int == expiry)
                }
                let status = try object(lines[2])
                let profiles = try #require(status["profiles"] as? [[String: Any]])
                #expect(profiles.first?["profile"] as? String == "work")
                #expect(profiles.first?["state"] as? String == "signedIn")
                #expect(profiles.first?["accessTokenExpiresAt"] as? Int == expiry)
                expectNoSecrets(in: lines[2], [stored], "the status reply")
                #expect(try object(lines[3])["version"] as? String == "9.9.9-test")
                #expect(try object(lines[4])["ok"] as? Bool == true)
            }
        }

        @Test func badRequestsAreAnsweredAndTheConnectionStaysUsable() async throws {
            try await withAgent { agent in
                let path = agent.socketPath
                let bad = [
                    #"{"v":2,"op":"ping"}"#,
                    #"{"op":"ping"}"#,
                    #"{"v":1,"op":"fly"}"#,
                    #"{"v":1}"#,
                    #"{"v":1,"op":"token","profile":""}"#,
                    #"{"v":1,"op":"token","profile":"work","kind":"refresh"}"#,
                    #"{"v":1,"op":"awsCredentials","profile":"work","guest":"yes"}"#,
                    // A host without identity pools (these tests') serves none.
                    #"{"v":1,"op":"awsCredentials","profile":"work"}"#,
                    #"[1,2,3]"#,
                    "not json at all",
                    "",
                ]
                let replies = try await OffPool.run { () -> [String] in
                    let connection = try RawConnection(path: path)
                    var replies: [String] = []
                    for line in bad {
                        connection.send(line + "\n")
                        replies.append(try connection.readLine())
                    }
                    connection.send(#"{"v":1,"op":"ping"}"# + "\n")
                    replies.append(try connection.readLine())
                    return replies
                }
                for (line, reply) in zip(bad, replies) {
                    #expect(try errorCode(reply) == "badRequest", "\(line) -> \(reply)")
                    #expect(try object(reply)["v"] as? Int == 1)
                    #expect(try object(reply)["ok"] as? Bool == false)
                }
                #expect(replies[0].contains("version 1"))
                #expect(try object(replies.last!)["ok"] as? Bool == true)
            }
        }

        @Test func unknownProfilesAndMissingSessionsSayWhatToDo() async throws {
            try await withAgent(signedIn: false) { agent in
                let path = agent.socketPath
                let (unknown, missing) = try await OffPool.run { () -> (String, String) in
                    let connection = try RawConnection(path: path)
                    connection.send(
                        #"{"v":1,"op":"token","profile":"other"}"# + "\n" + #"{"v":1,"op":"token","profile":"work"}"#
                            + "\n")
                    return (try connection.readLine(), try connection.readLine())
                }
                #expect(try errorCode(unknown) == "unknownProfile")
                #expect(try errorCode(missing) == "signInRequired")
                let message = try #require((try object(missing)["error"] as? [String: Any])?["message"] as? String)
                #expect(message.contains("No usable session for profile 'work'"))
                #expect(!message.contains("authvault login"), "the agent names no command; its caller adds the remedy")
                // How the profile signs in where the agent runs goes beside it, for a client with no configuration.
                let signIn = try #require((try object(missing)["error"] as? [String: Any])?["signIn"] as? [String: Any])
                #expect(signIn["profile"] as? String == "work" && signIn["mode"] as? String == "paste", "\(signIn)")
            }
        }

        /// The sign-in beside a failure reads back as written; an agent that sends none (older), or one this client
        /// cannot read, leaves the failure as it was: code and message.
        @Test func aSignInAnswerCarriesHowTheProfileSignsInAndOlderOrOddOnesStillRead() throws {
            let request = AgentRequest.token(profile: "work", kind: .access, target: nil)
            let signIn = AgentSignIn(profile: "work", mode: "paste", flow: "email-otp")
            let failure = AgentFailure(.signInRequired, "No usable session for profile 'work'.", signIn: signIn)
            let line = AgentReply.failure(failure).line
            #expect(
                String(decoding: line, as: UTF8.self).contains(
                    #""signIn":{"profile":"work","mode":"paste","flow":"email-otp"}"#))
            #expect(AgentReply.parse(line.dropLast(), answering: request) == .failure(failure))
            let plain = AgentFailure(.signInRequired, "No usable session for profile 'work'.")
            for older in [
                #"{"v":1,"ok":false,"error":{"code":"signInRequired","message":"No usable session for profile 'work'."}}"#,
                #"{"v":1,"ok":false,"error":{"code":"signInRequired","message":"No usable session for profile 'work'.","signIn":{"profile":7}}}"#,
                #"{"v":1,"ok":false,"error":{"code":"signInRequired","message":"No usable session for profile 'work'.","signIn":{"profile":"work","mode":null}}}"#,
            ] {
                #expect(AgentReply.parse(Array(older.utf8), answering: request) == .failure(plain), "\(older)")
            }
        }
    }
}
