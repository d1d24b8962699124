import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// `login` on a profile that is signed in already: whether it has anything to do, decided from the vault alone.
@Suite struct LoginNeedTests {
    @Test func aUsableSessionOfTheUserAskedForNeedsNoSignInAnotherUserOrNoneDoes() async throws {
        let pool = try await MotoProfile.make()
        let now = Date().timeIntervalSince1970
        #expect(try await pool.application.openProfile(named: "work").loginNeed(forUser: nil, now: now) == .signIn)

        try await pool.createUser("lena", password: "Lena-pass-1!")
        try await pool.signIn("lena", password: "Lena-pass-1!")
        let session = try await pool.application.openProfile(named: "work")
        guard case .alreadySignedIn(let existing) = await session.loginNeed(forUser: nil, now: now) else {
            throw TestFixtureError("a fresh session is a sign-in")
        }
        #expect(existing.username == "lena" && existing.email == "lena@example.com")
        // No refresh-token validity configured: the access token bounds what is said.
        #expect(existing.bound == .accessToken && existing.until > now)
        #expect(await session.loginNeed(forUser: "lena", now: now) == .alreadySignedIn(existing))
        #expect(await session.loginNeed(forUser: "LENA@example.com", now: now) == .alreadySignedIn(existing))
        #expect(await session.loginNeed(forUser: "other", now: now) == .signIn)
    }

    @Test func aRefreshTokenPastItsValidityIsNoSignIn() async throws {
        let pool = try await MotoProfile.make()
        var configuration = try pool.application.configStore.load()
        configuration.profiles["work"]?.refreshTokenValidity = 3600
        try pool.application.configStore.save(configuration)
        try await pool.createUser("omar", password: "Omar-pass-1!")
        try await pool.signIn("omar", password: "Omar-pass-1!")
        let session = try await pool.application.openProfile(named: "work")
        let now = Date().timeIntervalSince1970
        guard case .alreadySignedIn(let existing) = await session.loginNeed(forUser: nil, now: now) else {
            throw TestFixtureError("a fresh session is a sign-in")
        }
        #expect(existing.bound == .refreshToken && abs(existing.until - (now + 3600)) < 60)
        #expect(await session.loginNeed(forUser: nil, now: now + 3700) == .signIn)
    }
}
