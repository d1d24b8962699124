import Foundation
import Testing

@testable import SystemPlumbing

/// The boot clock the provider's clock offset is tied to: this boot's id, and seconds that only go forward.
@Suite struct BootClockTests {
    @Test func aReadingNamesThisBootAndMovesForward() throws {
        let first = try #require(BootTime.now())
        let bootID = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        #expect(first.bootID == bootID.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(first.seconds > 0)
        Thread.sleep(forTimeInterval: 0.01)
        let second = try #require(BootTime.now())
        #expect(second.bootID == first.bootID)
        #expect(second.seconds > first.seconds)
    }

    @Test func anAnchorGivesTheOffsetOnlyWithinItsBoot() {
        let anchor = ProviderClockAnchor(bootID: "a", providerMinusBoot: 1_000)
        #expect(anchor.offset(wall: 1_050, boot: BootTime(bootID: "a", seconds: 100)) == 50)
        #expect(anchor.offset(wall: 1_050, boot: BootTime(bootID: "b", seconds: 100)) == nil)
        #expect(anchor.offset(wall: 1_050, boot: nil) == nil)
    }
}
