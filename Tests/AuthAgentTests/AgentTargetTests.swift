import AuthAgent
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// A token request that carries its target (a client without a configuration, such as a remote shell through
    /// `ssh -R`): the agent applies the profiles' helper hosts itself, chooses among the profiles its socket serves
    /// when none is named, and a restricted socket refuses every target it may not serve with the one "not served".
    @Suite struct AgentTargetTests {
        @Test func aTargetIsReadAndWrittenBackTheSame() throws {
            let line =
                #"{"v":1,"op":"token","kind":"id","target":{"scheme":"HTTPS","host":"[::1]","port":8443,"#
                + #""path":"acme/tools.git","username":"alice","later":true}}"#
            let request = try AgentRequest.parse(Array(line.utf8))
            let target = try #require(
                AgentTarget(scheme: "https", host: "[::1]", port: 8443, path: "acme/tools.git", username: "alice"))
            #expect(request == .token(profile: nil, kind: .id, target: target))
            #expect(try AgentRequest.parse(request.line.dropLast()) == request)
            let named = AgentRequest.token(
                profile: "work", kind: .access, target: AgentTarget(scheme: "https", host: "git.example.com"))
            #expect(try AgentRequest.parse(named.line.dropLast()) == named)
            #expect(
                try AgentRequest.parse(Array(#"{"v":1,"op":"token","target":null}"#.utf8))
                    == .token(
                        profile: nil, kind: .access, target: nil))
            #expect(
                try AgentRequest.parse(Array(#"{"v":1,"op":"awsCredentials"}"#.utf8))
                    == .awsCredentials(
                        profile: nil, guest: false))
        }

        @Test(arguments: [
            #""git.example.com""#, #"{"host":"git.example.com"}"#, #"{"scheme":"https"}"#,
            #"{"scheme":"","host":"h"}"#, #"{"scheme":"ht tp","host":"h"}"#, #"{"scheme":"https","host":""}"#,
            #"{"scheme":"https","host":"a/b"}"#, #"{"scheme":"https","host":"user@h"}"#,
            #"{"scheme":"https","host":"a b"}"#, #"{"scheme":"https","host":"h","port":0}"#,
            #"{"scheme":"https","host":"h","port":65536}"#, #"{"scheme":"https","host":"h","port":1.5}"#,
            #"{"scheme":"https","host":"h","port":"443"}"#, #"{"scheme":"https","host":"h","path":5}"#,
            #"{"scheme":"https","host":"h","path":"a\nb"}"#, #"{"scheme":"https","host":"h","username":""}"#,
            #"{"scheme":"https","host":"h","username":"a\u0000"}"#,
            #"{"scheme":"https","host":""# + String(repeating: "a", count: 256) + #""}"#,
            #"{"scheme":"https","host":"h","path":""# + String(repeating: "p", count: 4097) + #""}"#,
        ])
        func aTargetNoToolCouldNameIsABadRequest(target: String) {
            let line = #"{"v":1,"op":"token","target":"# + target + "}"
            do {
                _ = try AgentRequest.parse(Array(line.utf8))
                Issue.record("read: \(target)")
            } catch {
                #expect(error.code == .badRequest, "\(target)")
            }
        }

        @Test func theOwnersSocketAnswersByTheHelperHosts() async throws {
            try await withAgent { agent in
                let token = try #require(try await agent.profiles.storedAccessToken())
                let client = agent.client
                let listed = try #require(AgentTarget(scheme: "https", host: "git.example.com", port: 443))
                let chosen = try await OffPool.run { try client.token(profile: nil, target: listed) }
                expectSecret(token, equals: text(chosen.token))
                #expect(chosen.profile == "work", "the agent names the profile it chose")
                let named = try await OffPool.run { try client.token(profile: "work", target: listed) }
                expectSecret(token, equals: text(named.token))
                #expect(named.profile == nil)
                let unnamed = try await OffPool.run { try client.token(profile: nil) }
                expectSecret(token, equals: text(unnamed.token), "no target: the current profile")
                #expect(unnamed.profile == "work", "no target: the current profile")

                // "empty" alone lists other.example.com: chosen, and it has no session.
                let other = try #require(AgentTarget(scheme: "https", host: "other.example.com"))
                let refusals = try await OffPool.run { () -> [AgentErrorCode?] in
                    [
                        (nil, other), ("work", other), (nil, AgentTarget(scheme: "https", host: "nobody.example.com")),
                        (nil, AgentTarget(scheme: "http", host: "git.example.com")),
                    ].map { profile, target -> AgentErrorCode? in
                        do throws(AgentClientError) {
                            _ = try client.token(profile: profile, target: target)
                            return nil
                        } catch {
                            guard case .server(let failure) = error else { return nil }
                            return failure.code
                        }
                    }
                }
                #expect(refusals == [.signInRequired, .unknownProfile, .unknownProfile, .unknownProfile])
            }
        }

        @Test func aRestrictedSocketChoosesAmongItsProfilesAndRefusesTheRestAlike() async throws {
            let directory = try TemporaryDirectory(prefix: "restricted")
            let path = directory.appending("container/agent.sock")
            try await withAgent(restrictedSockets: [.init(path: path, profiles: ["work"])]) { agent in
                let token = try #require(try await agent.profiles.storedAccessToken())
                let restricted = AgentClient(socketPath: path, timeout: .seconds(10))
                let listed = try #require(AgentTarget(scheme: "https", host: "git.example.com"))
                let chosen = try await OffPool.run { try restricted.token(profile: nil, target: listed) }
                expectSecret(token, equals: text(chosen.token))
                #expect(chosen.profile == "work")
                let sole = try await OffPool.run { try restricted.token(profile: nil) }
                expectSecret(token, equals: text(sole.token), "the socket's only profile")
                #expect(sole.profile == "work", "the socket's only profile")

                let refused = try await RawAgentRequests.send(
                    [
                        // Listed by "empty" only, which this socket does not serve: not chosen, whoever lists it.
                        #"{"v":1,"op":"token","target":{"scheme":"https","host":"other.example.com"}}"#,
                        #"{"v":1,"op":"token","profile":"empty","target":{"scheme":"https","host":"git.example.com"}}"#,
                        #"{"v":1,"op":"token","profile":"work","target":{"scheme":"https","host":"other.example.com"}}"#,
                        #"{"v":1,"op":"token","profile":"ghost","target":{"scheme":"https","host":"git.example.com"}}"#,
                        #"{"v":1,"op":"token","target":{"scheme":"https","host":"nobody.example.com"}}"#,
                        #"{"v":1,"op":"token","target":{"scheme":"http","host":"git.example.com"}}"#,
                    ], to: path)
                #expect(refused == Array(repeating: RawAgentRequests.notServed, count: 6), "\(refused)")
                #expect(!refused.joined().contains(token))
            }

            // Two served profiles list git.example.com: the current one answers.
            try await withAgent(restrictedSockets: [.init(path: path, profiles: ["work", "empty"])]) { agent in
                let listed = try #require(AgentTarget(scheme: "https", host: "git.example.com"))
                let restricted = AgentClient(socketPath: path, timeout: .seconds(10))
                #expect(try await OffPool.run { try restricted.token(profile: nil, target: listed) }.profile == "work")
            }
        }
    }
}
