import AuthAgent
import AuthStore
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// The agent follows the profiles' change stamps: another process's change (a sign-in, a sign-out, a
    /// migration, a re-key) reaches the very next request, fresh tokens included; and it keeps no cache of its own
    /// that a change of its stores could leave behind.
    @Suite struct AgentRevisionTests {
        @Test func aBumpedRevisionDropsTheStore() async throws {
            try await withAgent { agent in
                let client = agent.client
                let first = text(try await OffPool.run { try client.token(profile: "work") }.token)
                #expect(agent.profiles.storesMade == 1)

                // Another process signs in again: a new token in the vault. Without a bump the agent's store answers
                // from memory (this vault, in memory, bumps nothing), which is what every backend's bump is there to prevent.
                try await agent.profiles.signInWork()
                let newer = try #require(try await agent.profiles.storedAccessToken())
                expectSecret(first, differsFrom: newer, "a new token in the vault")
                expectSecret(
                    first, equals: text(try await OffPool.run { try client.token(profile: "work") }.token),
                    "the store's token in memory")
                #expect(agent.profiles.storesMade == 1)

                try agent.profiles.changeStamps.bump(profile: "work")
                expectSecret(
                    newer, equals: text(try await OffPool.run { try client.token(profile: "work") }.token),
                    "after the bump")
                #expect(agent.profiles.storesMade == 2, "the store is made again, and reads the record again")
                // Unchanged since: served from the new store, no store made per request.
                expectSecret(
                    newer,
                    differsFrom: text(try await OffPool.run { try client.token(profile: "work", kind: .id) }.token),
                    "the ID token")
                expectSecret(
                    newer, equals: text(try await OffPool.run { try client.token(profile: "work") }.token),
                    "from the new store")
                #expect(agent.profiles.storesMade == 2)
            }
        }

        /// The settings file rewritten (another identity pool or role, another app client): the store built from
        /// the old settings goes; the next request builds a store from the new ones.
        @Test func changedSettingsDropTheStore() async throws {
            try await withAgent { agent in
                let client = agent.client
                let path = try #require(agent.profiles.configurationPath)
                try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
                _ = try await OffPool.run { try client.token(profile: "work") }
                _ = try await OffPool.run { try client.token(profile: "work") }
                #expect(agent.profiles.storesMade == 1)
                // An atomic replace, as the configuration store writes it.
                try Data("{\"changed\":true}".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                _ = try await OffPool.run { try client.token(profile: "work") }
                #expect(agent.profiles.storesMade == 2, "the store made from the old settings was kept")
            }
        }

        /// A store the agent holds signs out (as a program embedding the agent may do through it): the very next
        /// request is refused, with no revision bump to tell the agent; nothing else of the agent's still serves the token.
        @Test func aSignOutThroughTheAgentsStoreIsSeenByTheVeryNextRequest() async throws {
            try await withAgent { agent in
                let client = agent.client
                for _ in 0..<3 { _ = try await OffPool.run { try client.token(profile: "work") } }
                let store = try #require(agent.profiles.madeStores.last)
                _ = await store.signOut(global: false)
                try await expectSignInRequired(client)
                #expect(agent.profiles.storesMade == 1, "the same store answered")
            }
        }

        /// The agent refuses the token of "work": sign in.
        func expectSignInRequired(_ client: AgentClient, sourceLocation: SourceLocation = #_sourceLocation) async throws
        {
            do {
                _ = try await OffPool.run { try client.token(profile: "work") }
                Issue.record("a token after the sign-out", sourceLocation: sourceLocation)
            } catch let error as AgentClientError {
                guard case .server(let failure) = error else { throw error }
                #expect(failure.code == .signInRequired, sourceLocation: sourceLocation)
            }
        }

        @Test func aSignOutElsewhereIsSeenByTheNextRequestAndByStatus() async throws {
            try await withAgent { agent in
                let client = agent.client
                _ = try await OffPool.run { try client.token(profile: "work") }
                try await agent.profiles.vault.delete(profile: "work")
                try agent.profiles.changeStamps.bump(profile: "work")
                let status = try await OffPool.run { try client.status(profile: "work") }
                #expect(status.first?.state == "signedOut", "\(status)")
                try await expectSignInRequired(client)
            }
        }

        @Test func unlockIsPassedToTheHost() async throws {
            try await withAgent { agent in
                try await OffPool.run { try agent.client.lock() }
                try await OffPool.run { try agent.client.unlock() }
                #expect(agent.profiles.locks == 1)
                #expect(agent.profiles.unlocks == 1)
                #expect(agent.log.contains("unlocked"))
            }
        }
    }
}
