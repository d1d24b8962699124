import AuthCrypto
import CognitoAuth
import Foundation
import TestSupport
import Testing
import TokenVault

@testable import AuthStore

/// The machine as a remembered device: confirmed after a sign-in when the policy says so, kept in the vault across
/// sign-outs, sent with every later sign-in, forgotten here when Cognito no longer knows it.
@Suite struct DeviceStoreTests {
    /// The store tests' clock, vault, lock directory and scripted authority.
    let bench: AuthStoreTests
    var vault: MemoryVault { bench.vault }
    var authority: FakeAuthority { bench.authority }

    init() throws {
        bench = try AuthStoreTests()
    }

    func makeStore(policy: DevicePolicy? = DevicePolicy(name: "build-host", remember: false)) -> AuthStore {
        AuthStore(
            profile: "work", vault: vault, lock: ProfileLock(directory: bench.directory.path, profile: "work"),
            authority: authority, devicePolicy: policy, now: bench.clock.now)
    }

    func signIn(_ store: AuthStore) async throws {
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
    }

    @Test func aNewDeviceIsConfirmedKeptAcrossSignOutAndSentNextTime() async throws {
        let store = makeStore()
        try await signIn(store)
        let device = try #require(try await vault.load(profile: "work")?.device)
        #expect(device.name == "build-host" && device.key == "us-east-1_device-1")
        #expect(authority.devices.snapshot.known[device.key]?.remembered == true)
        #expect(
            await store.recordFacts()?.device == RecordFacts.Device(key: device.key, name: device.name),
            "its key and name, no secret")

        _ = await store.signOut(global: false)
        let afterSignOut = try #require(try await vault.load(profile: "work"))
        #expect(!afterSignOut.hasSession && afterSignOut.device == device)

        try await signIn(makeStore())
        #expect(authority.devices.snapshot.signIns == [nil, device.key])
        #expect(try await vault.load(profile: "work")?.device == device, "no new device for a remembered one")
    }

    @Test func withoutAPolicyNoDeviceIsConfirmed() async throws {
        try await signIn(makeStore(policy: nil))
        #expect(try await vault.load(profile: "work")?.device == nil)
        #expect(authority.devices.snapshot.known.isEmpty)
    }

    @Test func aDeviceCognitoForgotIsDroppedAndTheSignInGoesOn() async throws {
        try await signIn(makeStore())
        let first = try #require(try await vault.load(profile: "work")?.device)
        authority.devices.forgetAtCognito(first.key)

        try await signIn(makeStore())
        #expect(authority.devices.snapshot.signIns == [nil, first.key, nil])
        let second = try #require(try await vault.load(profile: "work")?.device)
        #expect(second.key != first.key)
    }

    @Test(arguments: [true, false])
    func wherePoolsLeaveItToTheUserThePolicyDecides(remember: Bool) async throws {
        authority.devices.leaveRememberingToTheUser()
        try await signIn(makeStore(policy: DevicePolicy(name: "laptop", remember: remember)))
        let device = try #require(try await vault.load(profile: "work")?.device)
        #expect(authority.devices.snapshot.known[device.key]?.remembered == remember)
    }

    @Test func forgettingTheDeviceDropsItAndAnEmptyRecordGoes() async throws {
        let store = makeStore()
        try await signIn(store)
        let device = try #require(try await vault.load(profile: "work")?.device)
        _ = await store.signOut(global: false)
        await store.forgetDevice(device.key)
        #expect(try await vault.load(profile: "work") == nil)
        #expect(await store.recordFacts()?.device == nil)
    }
}
