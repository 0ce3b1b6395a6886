import Foundation
import StreakCore
import Testing

@testable import StreakServer

@Suite("TodayClock with a day start")
struct TodayClockDayStartTests {
    @Test(
        "the cached day equals the core's wall-clock answer across DST changes and missing midnights",
        arguments: [
            // zone, UTC midnight two days before the change day
            ("UTC", 1_719_705_600.0),
            ("America/Sao_Paulo", 1_541_116_800.0),  // 2018-11-04 starts at 01:00
            ("Europe/Berlin", 1_711_670_400.0),  // 2024-03-31, 02:00 -> 03:00
            ("America/New_York", 1_730_419_200.0),  // 2024-11-03, 02:00 -> 01:00
            ("Australia/Lord_Howe", 1_712_275_200.0),  // back by 30 minutes
            ("Pacific/Apia", 1_325_030_400.0),  // 2011-12-30 skipped: -10 h -> +14 h
            ("Antarctica/Casey", 1_267_488_000.0),  // 2010-03-05 02:00 +11 -> 2010-03-04 23:00 +08
        ],
        // 90 and 105: a day start inside a repeated hour (New York and London 01:00-02:00,
        // Lord Howe 01:30-02:00), where falling back makes the user's date the previous one again.
        [60, 90, 105, 180, 720]
    )
    func matchesCore(change: (zoneName: String, start: Double), minutes: Int) throws {
        let (zoneName, start) = change
        let zone = try Today.timeZone(zoneName)
        let dayStart = try DayStart(minutes: minutes)
        var clock = TodayClock()
        // Every five minutes, and one second either side of each step, for four days.
        for step in 0..<(4 * 288) {
            for delta in [-1.0, 0, 1] {
                let now = Date(timeIntervalSince1970: start + Double(step) * 300 + delta)
                let expected = Today.date(at: now, in: zone, dayStart: dayStart)
                #expect(clock.today(in: zoneName, dayStart: dayStart, now: now) == expected, "at \(now)")
            }
        }
    }

    @Test("changing the day start, or going back to midnight, recomputes the day")
    func switching() throws {
        var clock = TodayClock()
        let now = Date(timeIntervalSince1970: 1_719_705_600 + 2 * 3_600)  // 2024-06-30 02:00 UTC
        #expect(clock.today(in: "UTC", now: now).description == "2024-06-30")
        #expect(clock.today(in: "UTC", dayStart: try DayStart(minutes: 180), now: now).description == "2024-06-29")
        #expect(clock.today(in: "UTC", dayStart: try DayStart(minutes: 60), now: now).description == "2024-06-30")
        #expect(clock.today(in: "UTC", dayStart: try DayStart(minutes: 180), now: now).description == "2024-06-29")
        #expect(clock.today(in: "UTC", now: now).description == "2024-06-30")
    }
}
