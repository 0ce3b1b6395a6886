import Foundation
import StreakCore
import Testing

@Suite("The day's start: wall-clock time minus day_start")
struct DayStartTests {
    @Test(
        "day_start must be 0...720 minutes",
        arguments: [(-1, false), (0, true), (60, true), (720, true), (721, false)]
    )
    func validation(minutes: Int, valid: Bool) {
        if valid {
            #expect((try? DayStart(minutes: minutes))?.minutes == minutes)
        } else {
            let error = #expect(throws: CoreError.self) { try DayStart(minutes: minutes) }
            #expect(error?.code == .invalidArgument && error?.rpcStatusCode == .invalidArgument)
            #expect(error?.message == "day_start must be 0...720 minutes, got \(minutes)")
        }
    }

    @Test("03:00 on March 5 starts March 5; 02:30 belongs to March 4 (the rule's own example)")
    func example() throws {
        let zone = try Today.timeZone("UTC")
        let threeAM = try DayStart(minutes: 180)
        let at = { (text: String) in try #require(ISO8601DateFormatter().date(from: text)) }
        #expect(Today.date(at: try at("2024-03-05T02:30:00Z"), in: zone, dayStart: threeAM) == day("2024-03-04"))
        #expect(Today.date(at: try at("2024-03-05T03:00:00Z"), in: zone, dayStart: threeAM) == day("2024-03-05"))
        #expect(threeAM.description == "03:00" && DayStart.midnight.description == "00:00")
        #expect(UserSettings.defaults.dayStart == .midnight)
    }

    @Test(
        "instants on both sides of the day's start around DST changes, with day_start 0, 60, 120 and 180",
        arguments: [
            // New York, 2024-03-10: 02:00 EST -> 03:00 EDT at 07:00Z.
            ("America/New_York", 0, "2024-03-10T04:59:59Z", "2024-03-09"),
            ("America/New_York", 0, "2024-03-10T05:00:00Z", "2024-03-10"),
            ("America/New_York", 60, "2024-03-10T05:59:59Z", "2024-03-09"),  // 00:59:59 EST
            ("America/New_York", 60, "2024-03-10T06:00:00Z", "2024-03-10"),  // 01:00 EST
            ("America/New_York", 120, "2024-03-10T06:59:59Z", "2024-03-09"),  // 01:59:59 EST; 02:00 never comes
            ("America/New_York", 120, "2024-03-10T07:00:00Z", "2024-03-10"),  // 03:00 EDT
            ("America/New_York", 180, "2024-03-10T06:59:59Z", "2024-03-09"),
            ("America/New_York", 180, "2024-03-10T07:00:00Z", "2024-03-10"),  // 03:00 EDT
            ("America/New_York", 180, "2024-03-11T06:59:59Z", "2024-03-10"),  // 02:59:59 EDT
            ("America/New_York", 180, "2024-03-11T07:00:00Z", "2024-03-11"),
            // New York, 2024-11-03: 02:00 EDT -> 01:00 EST at 06:00Z; 01:00...01:59 happens twice.
            ("America/New_York", 60, "2024-11-03T04:59:59Z", "2024-11-02"),
            ("America/New_York", 60, "2024-11-03T05:00:00Z", "2024-11-03"),  // 01:00 EDT
            ("America/New_York", 60, "2024-11-03T06:00:00Z", "2024-11-03"),  // 01:00 EST
            ("America/New_York", 60, "2024-11-04T05:59:59Z", "2024-11-03"),
            ("America/New_York", 60, "2024-11-04T06:00:00Z", "2024-11-04"),
            ("America/New_York", 120, "2024-11-03T05:59:59Z", "2024-11-02"),  // 01:59:59 EDT
            ("America/New_York", 120, "2024-11-03T06:00:00Z", "2024-11-02"),  // 01:00 EST: the clock went back
            ("America/New_York", 120, "2024-11-03T07:00:00Z", "2024-11-03"),  // 02:00 EST
            ("America/New_York", 180, "2024-11-03T06:59:59Z", "2024-11-02"),
            ("America/New_York", 180, "2024-11-03T07:59:59Z", "2024-11-02"),  // 02:59:59 EST: a 25-hour day
            ("America/New_York", 180, "2024-11-03T08:00:00Z", "2024-11-03"),
            // Berlin, 2024-03-31: 02:00 CET -> 03:00 CEST at 01:00Z.
            ("Europe/Berlin", 0, "2024-03-30T22:59:59Z", "2024-03-30"),
            ("Europe/Berlin", 0, "2024-03-30T23:00:00Z", "2024-03-31"),
            ("Europe/Berlin", 60, "2024-03-30T23:59:59Z", "2024-03-30"),
            ("Europe/Berlin", 60, "2024-03-31T00:00:00Z", "2024-03-31"),  // 01:00 CET
            ("Europe/Berlin", 180, "2024-03-31T00:59:59Z", "2024-03-30"),  // 01:59:59 CET
            ("Europe/Berlin", 180, "2024-03-31T01:00:00Z", "2024-03-31"),  // 03:00 CEST
            // Berlin, 2024-10-27: 03:00 CEST -> 02:00 CET at 01:00Z.
            ("Europe/Berlin", 0, "2024-10-26T21:59:59Z", "2024-10-26"),
            ("Europe/Berlin", 0, "2024-10-26T22:00:00Z", "2024-10-27"),
            ("Europe/Berlin", 60, "2024-10-26T22:59:59Z", "2024-10-26"),
            ("Europe/Berlin", 60, "2024-10-26T23:00:00Z", "2024-10-27"),  // 01:00 CEST
            ("Europe/Berlin", 180, "2024-10-27T00:59:59Z", "2024-10-26"),  // 02:59:59 CEST
            ("Europe/Berlin", 180, "2024-10-27T01:00:00Z", "2024-10-26"),  // 02:00 CET, again
            ("Europe/Berlin", 180, "2024-10-27T01:59:59Z", "2024-10-26"),
            ("Europe/Berlin", 180, "2024-10-27T02:00:00Z", "2024-10-27"),  // 03:00 CET
            // Sao Paulo, 2018-11-04: 00:00 -03 -> 01:00 -02 at 03:00Z, a day without a midnight.
            ("America/Sao_Paulo", 0, "2018-11-04T02:59:59Z", "2018-11-03"),
            ("America/Sao_Paulo", 0, "2018-11-04T03:00:00Z", "2018-11-04"),
            ("America/Sao_Paulo", 60, "2018-11-04T02:59:59Z", "2018-11-03"),  // 23:59:59 -03
            ("America/Sao_Paulo", 60, "2018-11-04T03:00:00Z", "2018-11-04"),  // 01:00 -02
            ("America/Sao_Paulo", 180, "2018-11-04T03:00:00Z", "2018-11-03"),  // 01:00 -02
            ("America/Sao_Paulo", 180, "2018-11-04T04:59:59Z", "2018-11-03"),
            ("America/Sao_Paulo", 180, "2018-11-04T05:00:00Z", "2018-11-04"),  // 03:00 -02
            // Sao Paulo, 2019-02-17: 00:00 -02 -> 23:00 -03 on the 16th, at 02:00Z.
            ("America/Sao_Paulo", 60, "2019-02-17T01:59:59Z", "2019-02-16"),
            ("America/Sao_Paulo", 60, "2019-02-17T02:00:00Z", "2019-02-16"),  // 23:00 -03
            ("America/Sao_Paulo", 60, "2019-02-17T03:59:59Z", "2019-02-16"),  // 00:59:59 -03
            ("America/Sao_Paulo", 60, "2019-02-17T04:00:00Z", "2019-02-17"),
            ("America/Sao_Paulo", 180, "2019-02-17T05:59:59Z", "2019-02-16"),
            ("America/Sao_Paulo", 180, "2019-02-17T06:00:00Z", "2019-02-17"),
            // Beirut, 2024-03-31: 00:00 +02 -> 01:00 +03 at 22:00Z on the 30th, no midnight either.
            ("Asia/Beirut", 0, "2024-03-30T21:59:59Z", "2024-03-30"),
            ("Asia/Beirut", 0, "2024-03-30T22:00:00Z", "2024-03-31"),  // 01:00 +03
            ("Asia/Beirut", 60, "2024-03-30T21:59:59Z", "2024-03-30"),
            ("Asia/Beirut", 60, "2024-03-30T22:00:00Z", "2024-03-31"),
            ("Asia/Beirut", 180, "2024-03-30T23:59:59Z", "2024-03-30"),  // 02:59:59 +03
            ("Asia/Beirut", 180, "2024-03-31T00:00:00Z", "2024-03-31"),
            // Havana, 2024-03-10: 00:00 -05 -> 01:00 -04 at 05:00Z.
            ("America/Havana", 0, "2024-03-10T04:59:59Z", "2024-03-09"),
            ("America/Havana", 60, "2024-03-10T05:00:00Z", "2024-03-10"),  // 01:00 -04
            ("America/Havana", 180, "2024-03-10T06:59:59Z", "2024-03-09"),
            ("America/Havana", 180, "2024-03-10T07:00:00Z", "2024-03-10"),
        ]
    )
    func daylightSaving(zoneName: String, minutes: Int, instant: String, expected: String) throws {
        let zone = try Today.timeZone(zoneName)
        let date = try #require(ISO8601DateFormatter().date(from: instant))
        #expect(Today.date(at: date, in: zone, dayStart: try DayStart(minutes: minutes)).description == expected)
    }

    @Test("in UTC, the arithmetic answer equals Foundation's", arguments: [0, 1, 60, 180, 719, 720])
    func utc(minutes: Int) throws {
        let zone = try Today.timeZone("UTC")
        let start = try DayStart(minutes: minutes)
        for seconds in stride(from: 1_709_596_800.0 - 86_400, through: 1_709_596_800 + 86_400, by: 59.5) {
            let instant = Date(timeIntervalSince1970: seconds)
            #expect(Today.utcDate(at: instant, dayStart: start) == Today.date(at: instant, in: zone, dayStart: start))
        }
    }
}
