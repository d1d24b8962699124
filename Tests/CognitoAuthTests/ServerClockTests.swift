import AuthCrypto
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// The provider's clock as this machine learns it: the offset arithmetic, the transport that teaches it, and a
/// client on a machine whose clock is ten minutes off accepting the tokens it was just given.
@Suite struct ServerClockTests {
    @Test func theOffsetIsTheProviderTimeMinusTheLocalTime() {
        let local = TestClock(1_800_000_000)
        let clock = ServerClock(local: local.now)
        #expect(clock.offset == nil)
        #expect(clock.now() == 1_800_000_000)
        clock.learn(serverTime: 1_800_000_600)
        #expect(clock.offset == 600)
        local.advance(by: 30)
        #expect(clock.now() == 1_800_000_630)
        clock.learn(serverTime: 1_799_999_430)
        #expect(clock.offset == -600)
    }

    /// Ten minutes either way is a clock's drift and adopted; two hours is a fault (a hostile `Date`, a cache's
    /// absurd `Age`, a machine clock too far off to guess by): not adopted, and reported until a usable one comes.
    @Test func offsetsBeyondAnHourAreRefusedAndReported() {
        let clock = ServerClock(local: TestClock(1_800_000_000).now)
        clock.learn(serverTime: 1_800_007_200)
        #expect(clock.offset == nil && clock.now() == 1_800_000_000)
        #expect(clock.refusedOffset == 7200)
        clock.learn(serverTime: 253_402_300_799.5)
        #expect(clock.offset == nil && clock.refusedOffset == 253_402_300_799.5 - 1_800_000_000)
        clock.learn(serverTime: 1_799_999_400)
        #expect(clock.offset == -600 && clock.refusedOffset == nil)
        clock.learn(serverTime: 1_800_000_000 - 7200)
        #expect(clock.offset == -600, "a refused measurement leaves the adopted offset")
        #expect(clock.refusedOffset == -7200)

        let reader = ServerClock(local: TestClock(1_800_000_000).now)
        reader.adopt(7200)
        #expect(reader.offset == nil && reader.refusedOffset == 7200)
        reader.adopt(600)
        #expect(reader.offset == 600)
        let recalled = ServerClock(local: TestClock(1_800_000_000).now)
        recalled.recall(refusedOffset: -7200)
        #expect(recalled.offset == nil && recalled.refusedOffset == -7200)
    }

    /// An offset anchored to the boot clock that a wall-clock change carried beyond an hour is not used either.
    @Test func anAnchoredOffsetCarriedBeyondAnHourIsNotUsed() {
        let wall = TestClock(1_800_000_000)
        let boot = BootReading(bootID: "boot-1", seconds: 50)
        let clock = ServerClock(local: wall.now, boot: boot.now)
        clock.learn(serverTime: 1_800_000_600)
        wall.advance(by: -7200)
        #expect(clock.offset == nil)
        #expect(clock.refusedOffset.map { abs($0 - 7800) < 1 } == true)
    }

    @Test func anAdoptedOffsetNeverReplacesAMeasuredOne() {
        let clock = ServerClock(local: TestClock(1_000).now)
        clock.adopt(-600)
        #expect(clock.now() == 400)
        clock.learn(serverTime: 1_120)
        clock.adopt(-600)
        #expect(clock.offset == 120)
    }

    /// A wall clock ten minutes ahead when the offset was learned, then corrected (NTP, a person): the offset
    /// follows the boot clock, which no one set, so tokens are not timed ten minutes early once the clock is right.
    @Test func theOffsetFollowsAWallClockCorrectedLater() {
        let wall = TestClock(1_800_000_600)
        let boot = BootReading(bootID: "boot-1", seconds: 50)
        let clock = ServerClock(local: wall.now, boot: boot.now)
        clock.learn(serverTime: 1_800_000_000)
        #expect(clock.offset == -600)
        wall.advance(by: -600 + 30)
        boot.advance(by: 30)
        #expect(clock.offset == 0)
        #expect(clock.now() == 1_800_000_030)

        // Another process of the same boot reads the session's record: the anchor wins over the stale number.
        let reader = ServerClock(local: wall.now, boot: boot.now)
        reader.adopt(-600, anchor: clock.anchor)
        #expect(reader.offset == 0)
        // After a reboot the anchor says nothing, and the number kept with the session is all there is.
        let rebooted = ServerClock(local: wall.now, boot: BootReading(bootID: "boot-2", seconds: 5).now)
        rebooted.adopt(-600, anchor: clock.anchor)
        #expect(rebooted.offset == -600)
        #expect(rebooted.anchor == nil)
    }

    /// A clock the caller passed in has no boot clock beside it: a test's clock that jumps ahead must not be read as
    /// a corrected wall clock.
    @Test func aGivenClockHasNoBootClock() {
        let wall = TestClock(1_000)
        let clock = ServerClock(local: wall.now)
        clock.learn(serverTime: 1_600)
        wall.advance(by: 3_600)
        #expect(clock.offset == 600)
        #expect(clock.anchor == nil)
    }

    /// A token's `exp` handed to a tool is put on this machine's clock, unless the offset is only measuring noise.
    /// botocore compares a `credential_process` Expiration with its own clock: it gets the local reading.
    @Test func awsCredentialsExpireOnThisMachinesClock() {
        let clock = ServerClock(local: TestClock(1_000).now)
        clock.learn(serverTime: 1_600)
        let credentials = AWSCredentials(
            accessKeyId: "AKIA", secretAccessKey: SecretBytes(utf8: "s"), sessionToken: SecretBytes(utf8: "t"),
            expiresAt: 5_000, identityId: "us-east-1:x")
        #expect(credentials.expiringOnLocalClock(of: clock).expiresAt == 4_400)
        #expect(credentials.expiringOnLocalClock(of: clock).accessKeyId == "AKIA")
    }

    @Test func providerTimesAreReadOnThisMachinesClock() {
        let clock = ServerClock(local: TestClock(1_000).now)
        #expect(clock.localTime(ofProviderTime: 5_000) == 5_000)
        clock.learn(serverTime: 1_003)
        #expect(clock.localTime(ofProviderTime: 5_000) == 5_000)
        clock.learn(serverTime: 400)
        #expect(clock.localTime(ofProviderTime: 5_000) == 5_600)
    }

    /// A `Date` header counts whole seconds: the offset it teaches is reported, but tokens are timed by the local
    /// clock, as their expiry is handed to tools (`localTime`); an eight-second token is not judged a second fresher.
    @Test func anOffsetWithinThePrecisionIsNoiseThatTimesNothing() {
        let clock = ServerClock(local: TestClock(1_000.9).now)
        clock.learn(serverTime: 1_000)
        #expect(clock.offset.map { abs($0 + 0.9) < 1e-9 } == true)
        #expect(clock.now() == 1_000.9)
        #expect(clock.localTime(ofProviderTime: 1_008) == 1_008)
    }

    @Test func everyAnswerWithADateTeachesTheClock() async throws {
        let local = TestClock(Date().timeIntervalSince1970)
        let clock = ServerClock(local: local.now)
        let stub = StubTransport(jwks: TestTokens.jwks) { _, _ in StubTransport.json([:]) }
        let undated = ClockLearningTransport(stub, teaching: clock)
        _ = try await undated.send(HTTPRequest(url: "https://stub.test/"))
        #expect(clock.offset == nil)

        let dated = ClockLearningTransport(DatedTransport(stub, skew: -600), teaching: clock)
        _ = try await dated.send(HTTPRequest(url: "https://stub.test/"))
        let offset = try #require(clock.offset)
        #expect(abs(offset + 600) <= 1.5)
    }

    /// Cognito's tokens are issued by its clock; on a machine ten minutes behind, their `iat` lies ten minutes in
    /// this machine's future. Checked by the provider's clock they pass; by the local one they would not.
    @Test func tokensJustIssuedPassOnAMachineTenMinutesBehind() async throws {
        let behind: @Sendable () -> Double = { Date().timeIntervalSince1970 - 600 }
        let stub = StubTransport(jwks: TestTokens.jwks) { _, _ in
            StubTransport.json(CognitoClientRequestTests.tokensResult(refresh: false))
        }
        let learning = ServerClock(local: behind)
        let taught = try client(
            ClockLearningTransport(DatedTransport(stub, skew: 0), teaching: learning), now: learning.now)
        let tokens = try await taught.refresh(refreshToken: SecretBytes(utf8: "good-refresh"), username: "alice")
        #expect(tokens.identity.subject == "sub-1")
        #expect(abs((learning.offset ?? 0) - 600) <= 1.5)

        let untaught = try client(DatedTransport(stub, skew: 0), now: behind)
        do {
            _ = try await untaught.refresh(refreshToken: SecretBytes(utf8: "good-refresh"), username: "alice")
            Issue.record("by the local clock, a token issued ten minutes in the future is refused")
        } catch {
            guard case .tokenRejected(.notYetValid) = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    private func client(_ transport: any HTTPTransport, now: @escaping @Sendable () -> Double) throws -> CognitoClient {
        let poolId = CognitoClientRequestTests.poolId
        let clientId = CognitoClientRequestTests.clientId
        let verifier = TokenVerifier(
            issuer: TestTokens.issuer(poolId: poolId), clientId: clientId,
            keys: JWKSCache(url: StubTransport.jwksURL, transport: transport), now: now)
        let configuration = CognitoConfiguration(
            region: "us-east-1", userPoolId: poolId, clientId: clientId, endpoint: "https://stub.test/")
        return try CognitoClient(configuration: configuration, transport: transport, verifier: verifier)
    }
}

/// Adds the `Date` header a server whose clock is `skew` seconds off real time would send.
private struct DatedTransport: HTTPTransport {
    let base: any HTTPTransport
    let skew: Double

    init(_ base: any HTTPTransport, skew: Double) {
        self.base = base
        self.skew = skew
    }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        var response = try await base.send(request)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        response.headers.append(
            HTTPHeader(name: "Date", value: formatter.string(from: Date().addingTimeInterval(skew))))
        return response
    }
}

/// A boot clock a test moves by hand.
private final class BootReading: Sendable {
    private let seconds: Locked<Double>
    private let bootID: String

    init(bootID: String, seconds: Double) {
        self.bootID = bootID
        self.seconds = Locked(seconds)
    }

    func advance(by delta: Double) { seconds.withLock { $0 += delta } }

    var now: @Sendable () -> BootTime? {
        { [self] in BootTime(bootID: bootID, seconds: seconds.withLock { $0 }) }
    }
}
