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

    @Test(
        "the cached day follows DST changes, including a day without a midnight",
        arguments: [
            // zone, UTC midnight two days before the change day
            ("America/Sao_Paulo", 1_541_116_800.0),  // 2018-11-02; 2018-11-04 starts at 01:00
            ("America/Sao_Paulo", 1_550_188_800.0),  // 2019-02-15; 2019-02-16 has 25 hours
            ("Europe/London", 1_711_670_400.0),  // 2024-03-29
            ("America/New_York", 1_730_419_200.0),  // 2024-11-01
            ("Australia/Lord_Howe", 1_712_275_200.0),  // 2024-04-05; back by 30 minutes
            ("Pacific/Apia", 1_325_030_400.0),  // 2011-12-28; 2011-12-30 skipped (-10 h -> +14 h)
            ("Antarctica/Casey", 1_267_488_000.0),  // 2010-03-02; 03-05 02:00 +11 -> 03-04 23:00 +08
        ]
    )
    func daylightSaving(zoneName: String, start: Double) throws {
        let zone = try Today.timeZone(zoneName)
        var clock = TodayClock()
        // Every five minutes, and one second either side of each step, for four days.
        for step in 0..<(4 * 288) {
            for delta in [-1.0, 0, 1] {
                let now = Date(timeIntervalSince1970: start + Double(step) * 300 + delta)
                #expect(clock.today(in: zoneName, now: now) == Today.date(at: now, in: zone), "at \(now)")
            }
        }
    }

    @Test("switching zones recomputes the day")
    func switchingZones() {
        var clock = TodayClock()
        let now = Date(timeIntervalSince1970: 1_719_705_600 + 3_600)  // 2024-06-30 01:00 UTC
        #expect(clock.today(in: "UTC", now: now).description == "2024-06-30")
        #expect(clock.today(in: "America/New_York", now: now).description == "2024-06-29")
        #expect(clock.today(in: "UTC", now: now).description == "2024-06-30")
        // Before the Gregorian cutover Foundation's calendar is Julian; the clock stays proleptic
        // Gregorian, in UTC and elsewhere.
        let medieval = Date(timeIntervalSince1970: -30_000_000_000)  // 1019-05-04 18:40 UTC
        #expect(clock.today(in: "UTC", now: medieval).description == "1019-05-04")
        #expect(clock.today(in: "Europe/Berlin", now: medieval).description == "1019-05-04")
    }
}
