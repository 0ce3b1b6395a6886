import Foundation
import StreakCore
import Testing

@Suite("Today in UTC without the time zone database")
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

    @Test("day numbers floor towards the past; no arithmetic answer before the cutover or after 9999")
    func dayNumbers() throws {
        #expect(Today.utcDate(at: Date(timeIntervalSince1970: -12_219_292_800))?.description == "1582-10-15")
        #expect(Today.utcDate(at: Date(timeIntervalSince1970: -12_219_292_800 - 0.5)) == nil)
        #expect(Today.utcDate(at: Date(timeIntervalSince1970: 253_402_300_800)) == nil)
        #expect(try CivilDate(parsing: "1582-10-15").dayNumber == Today.gregorianCutoverDayNumber)
        #expect(Today.utcDayNumber(at: Date(timeIntervalSince1970: -0.001)) == -1)
        #expect(Today.utcDayNumber(at: Date(timeIntervalSince1970: 86_400)) == 1)
        #expect(Today.utcDate(at: Date(timeIntervalSince1970: 1_719_705_600))?.description == "2024-06-30")
    }
}
