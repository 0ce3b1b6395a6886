import Foundation
import StreakCore
import Testing

@Suite("Today: the civil date of an instant")
struct TodayTests {
    /// Instants around midnights, before 1970, far ahead, at the Gregorian cutover and at 9999-12-31.
    static let instants: [Double] = [
        0, -1, 1, 86_399, 86_400, -86_400, -86_401, 1_719_705_600 - 0.5, 1_719_705_600, 1_719_791_999.999,
        951_782_400, 4_107_542_400, -12_219_292_800, -12_219_292_800 + 86_399.5, 253_402_300_799, -2_208_988_800.25,
    ]

    @Test("the arithmetic UTC date equals Foundation's for every UTC identifier", arguments: Today.utcIdentifiers)
    func utcEqualsFoundation(identifier: String) throws {
        let zone = try Today.timeZone(identifier)
        #expect(zone.secondsFromGMT() == 0)
        for seconds in Self.instants {
            let instant = Date(timeIntervalSince1970: seconds)
            #expect(Today.utcDate(at: instant) == Today.date(at: instant, in: zone), "at \(seconds)")
        }
    }

    @Test("day numbers floor towards the past, on the proleptic Gregorian calendar, held to 0001...9999")
    func dayNumbers() throws {
        #expect(Today.utcDayNumber(at: Date(timeIntervalSince1970: -0.001)) == -1)
        #expect(Today.utcDayNumber(at: Date(timeIntervalSince1970: 86_400)) == 1)
        #expect(Today.utcDate(at: Date(timeIntervalSince1970: 1_719_705_600)).description == "2024-06-30")
        // Foundation's Gregorian calendar is Julian before 1582-10-15 (the day before it is
        // 1582-10-04 there); dates here are proleptic Gregorian, as CivilDate is.
        let utc = try Today.timeZone("UTC")
        let berlin = try Today.timeZone("Europe/Berlin")
        let cases: [(String, TimeZone, String)] = [
            ("1582-10-15T12:00:00Z", utc, "1582-10-15"),
            ("1582-10-14T12:00:00Z", utc, "1582-10-14"),
            ("1582-10-14T12:00:00Z", berlin, "1582-10-14"),
            ("1000-03-01T12:00:00Z", utc, "1000-03-01"),
            ("0001-01-01T12:00:00Z", utc, "0001-01-01"),
            ("0001-01-01T00:00:00Z", try Today.timeZone("America/New_York"), "0001-01-01"),
            ("9999-12-31T09:59:59Z", try Today.timeZone("Pacific/Kiritimati"), "9999-12-31"),
            // Past the calendar's end the user's today stays on its last day.
            ("9999-12-31T10:00:01Z", try Today.timeZone("Pacific/Kiritimati"), "9999-12-31"),
            ("9999-12-31T23:59:59Z", utc, "9999-12-31"),
        ]
        for (text, zone, expected) in cases {
            // By arithmetic: Foundation's ISO 8601 parser would read old dates as Julian ones.
            let parts = text.dropLast().split(separator: "T")
            let time = parts[1].split(separator: ":").compactMap { Double($0) }
            let day = try CivilDate(parsing: String(parts[0])).dayNumber
            let instant = Date(timeIntervalSince1970: Double(day) * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2])
            #expect(Today.date(at: instant, in: zone).description == expected, "\(text) in \(zone.identifier)")
            let withDayStart = try Today.date(at: instant, in: zone, dayStart: DayStart(minutes: 1))
            #expect(withDayStart.description <= expected, "\(text) in \(zone.identifier) with a day start")
        }
        #expect(Today.utcDate(at: Date(timeIntervalSince1970: 253_402_300_800)).description == "9999-12-31")
        #expect(Today.utcDate(at: Date(timeIntervalSince1970: -70_000_000_000)).description == "0001-01-01")
    }

    @Test(
        "the civil date of instants on both sides of local midnights around DST changes",
        arguments: [
            // Sao Paulo, 2018-11-04: clocks jump from 00:00 to 01:00, so that day has no midnight.
            ("America/Sao_Paulo", "2018-11-04T02:59:59Z", "2018-11-03"),  // 23:59:59 -03
            ("America/Sao_Paulo", "2018-11-04T03:00:00Z", "2018-11-04"),  // 01:00 -02
            // Sao Paulo, 2019-02-17: back from 00:00 -02 to 23:00 -03, the 16th has 25 hours.
            ("America/Sao_Paulo", "2019-02-17T01:59:59Z", "2019-02-16"),
            ("America/Sao_Paulo", "2019-02-17T02:00:00Z", "2019-02-16"),  // 23:00 -03, again
            ("America/Sao_Paulo", "2019-02-17T02:59:59Z", "2019-02-16"),
            ("America/Sao_Paulo", "2019-02-17T03:00:00Z", "2019-02-17"),
            ("Europe/London", "2024-03-31T00:59:59Z", "2024-03-31"),  // 00:59:59 GMT
            ("Europe/London", "2024-03-31T01:00:00Z", "2024-03-31"),  // 02:00 BST
            ("Europe/London", "2024-03-31T22:59:59Z", "2024-03-31"),
            ("Europe/London", "2024-03-31T23:00:00Z", "2024-04-01"),
            ("Europe/London", "2024-10-26T22:59:59Z", "2024-10-26"),
            ("Europe/London", "2024-10-26T23:00:00Z", "2024-10-27"),
            ("Europe/London", "2024-10-27T23:59:59Z", "2024-10-27"),  // a 25-hour day, in GMT by now
            ("Europe/London", "2024-10-28T00:00:00Z", "2024-10-28"),
            ("America/New_York", "2024-03-10T04:59:59Z", "2024-03-09"),
            ("America/New_York", "2024-03-10T05:00:00Z", "2024-03-10"),  // 00:00 EST
            ("America/New_York", "2024-03-11T03:59:59Z", "2024-03-10"),  // 23:59:59 EDT, a 23-hour day
            ("America/New_York", "2024-03-11T04:00:00Z", "2024-03-11"),
            ("America/New_York", "2024-11-03T03:59:59Z", "2024-11-02"),
            ("America/New_York", "2024-11-03T04:00:00Z", "2024-11-03"),  // 00:00 EDT
            ("America/New_York", "2024-11-04T04:59:59Z", "2024-11-03"),  // 23:59:59 EST, a 25-hour day
            ("America/New_York", "2024-11-04T05:00:00Z", "2024-11-04"),
            // Lord Howe moves by 30 minutes: +11:00 in summer, +10:30 in winter.
            ("Australia/Lord_Howe", "2024-04-06T12:59:59Z", "2024-04-06"),
            ("Australia/Lord_Howe", "2024-04-06T13:00:00Z", "2024-04-07"),  // 00:00 +11
            ("Australia/Lord_Howe", "2024-04-07T13:29:59Z", "2024-04-07"),  // 23:59:59 +10:30
            ("Australia/Lord_Howe", "2024-04-07T13:30:00Z", "2024-04-08"),
            ("Australia/Lord_Howe", "2024-10-05T13:29:59Z", "2024-10-05"),
            ("Australia/Lord_Howe", "2024-10-05T13:30:00Z", "2024-10-06"),  // 00:00 +10:30
            ("Australia/Lord_Howe", "2024-10-06T12:59:59Z", "2024-10-06"),  // 23:59:59 +11
            ("Australia/Lord_Howe", "2024-10-06T13:00:00Z", "2024-10-07"),
        ]
    )
    func daylightSaving(zoneName: String, instant: String, expected: String) throws {
        let zone = try Today.timeZone(zoneName)
        let date = try #require(ISO8601DateFormatter().date(from: instant))
        #expect(Today.date(at: date, in: zone).description == expected)
    }

    @Test("offsets are not zone names: Foundation reads GMT+5 as UTC+5, IANA's Etc/GMT+5 is UTC-5")
    func offsetsAreRefused() throws {
        for offset in ["GMT+5", "GMT-5", "UTC+5", "UTC-03:00", "GMT+05:00"] {
            #expect(throws: CoreError.self, "\(offset)") { try Today.timeZone(offset) }
        }
        // GMT+0 and GMT-0 look like offsets but are IANA's own links to UTC.
        for name in [
            "UTC", "GMT", "Etc/GMT+5", "Etc/GMT-14", "Asia/Kolkata", "US/Eastern", "EST5EDT", "GMT+0", "GMT-0",
        ] {
            #expect(throws: Never.self, "\(name)") { try Today.timeZone(name) }
        }
        #expect(try Today.timeZone("Etc/GMT+5").secondsFromGMT() == -5 * 3_600)
        #expect(try Today.timeZone("GMT-0").secondsFromGMT() == 0)
    }

    @Test("a zone name in the wrong case is refused with the right spelling suggested")
    func wrongCaseSuggestsTheName() {
        let cases = [
            ("america/los_angeles", "unknown time zone america/los_angeles (did you mean America/Los_Angeles?)"),
            ("EUROPE/BERLIN", "unknown time zone EUROPE/BERLIN (did you mean Europe/Berlin?)"),
            ("Mars/Olympus_Mons", "unknown time zone Mars/Olympus_Mons"),
        ]
        for (name, message) in cases {
            do {
                _ = try Today.timeZone(name)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.message == message && error.code == .unknownIdentifier)
            }
        }
    }
}
