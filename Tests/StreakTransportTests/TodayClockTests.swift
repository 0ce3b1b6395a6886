import Foundation
import StreakCore
import Testing

@testable import StreakServer

@Suite("TodayClock")
struct TodayClockTests {
    @Test(
        "today in a zone, cached within the day, equal to Foundation's answer",
        arguments: ["UTC", "GMT", "Etc/UTC", "America/Sao_Paulo", "Asia/Kolkata", "Pacific/Kiritimati"]
    )
    func today(zoneName: String) throws {
        let zone = try Today.timeZone(zoneName)
        var clock = TodayClock()
        // Every half hour over three days, crossing midnights in every zone.
        for step in 0..<144 {
            let now = Date(timeIntervalSince1970: 1_719_705_600 - 86_400 + Double(step) * 1_800 + 0.5)
            #expect(clock.today(in: zoneName, now: now) == Today.date(at: now, in: zone), "at \(now)")
        }
    }

    @Test("switching zones recomputes the day")
    func switchingZones() {
        var clock = TodayClock()
        let now = Date(timeIntervalSince1970: 1_719_705_600 + 3_600)  // 2024-06-30 01:00 UTC
        #expect(clock.today(in: "UTC", now: now).description == "2024-06-30")
        #expect(clock.today(in: "America/New_York", now: now).description == "2024-06-29")
        #expect(clock.today(in: "UTC", now: now).description == "2024-06-30")
        // Before the Gregorian cutover Foundation's calendar is Julian; the clock gives its answer.
        let medieval = Date(timeIntervalSince1970: -30_000_000_000)
        #expect(clock.today(in: "UTC", now: medieval) == Today.date(at: medieval, in: TimeZone(identifier: "UTC")!))
    }
}
