import StreakCore
import StreakWire
import Testing

/// BuildHeatmap's compact input: completion days per habit as varint deltas.
@Suite struct HabitDaysTests {
    @Test func daysRoundTripSortedAndUnique() throws {
        let days = [day(2024, 3, 5), day(2024, 3, 1), day(2024, 3, 2), day(2024, 3, 5), day(1969, 12, 31)]
        let habitDays = WireHabitDays(habitId: 7, days: days)
        #expect(try habitDays.dayNumbers() == Set(days).map(\.dayNumber).sorted())
        // 1969-12-31 is day -1 (zig-zag 1); then the gap to 2024-03-01 (day 19,783: 19,784 days), 1 and 3.
        #expect(habitDays.dayDeltas == [0x01, 0xC8, 0x9A, 0x01, 0x01, 0x03])
        #expect(
            try WireHabitDays(habitId: 1, days: [CivilDate.min, .max]).dayNumbers() == [
                CivilDate.min.dayNumber, CivilDate.max.dayNumber,
            ]
        )
        #expect(try WireHabitDays(habitId: 1, dayDeltas: []).dayNumbers() == [])
    }

    @Test func badDeltasAreRefusedNamingTheByte() {
        func refused(_ bytes: [UInt8], _ fragment: String) {
            #expect {
                try WireHabitDays(habitId: 1, dayDeltas: bytes).dayNumbers()
            } throws: { error in
                (error as? WireError).map { $0.code == .invalidValue && $0.message.contains(fragment) } ?? false
            }
        }
        refused([0x02, 0x00], "a gap of 0 at byte 1 (days must ascend)")
        refused([0x02, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], "overlong varint at byte 2")
        refused([0x80, 0x80, 0x80, 0x80, 0x80, 0x01], "overlong varint at byte 0")
        refused([0x02, 0x81], "truncated varint at byte 1")
        // Zig-zag 1,438,325 is day -719,163 (0000-12-31); 5,865,792 is 9999-12-31, one more is too late.
        refused([0xF5, 0xE4, 0x57], "day number -719163 at byte 0 is outside")
        refused([0xC0, 0x82, 0xE6, 0x02, 0x01], "day number 2932897 at byte 4 is outside")
    }

    /// Today's input costs about 110 bytes of decoded memory per completion, so the 16 MiB budget
    /// holds about 130,000; the compact form holds 1,300,000 in under 2 MiB.
    @Test func compactInputHoldsTenTimesMoreCompletionsInTheBudget() throws {
        let habits = 100
        let daysEach = 13_000
        let first = day(1990, 1, 1).dayNumber
        var request = WireBuildHeatmapRequest()
        request.asOf = day(2025, 12, 31)
        request.habits = (1...habits).map { WireHabit(id: Int64($0), name: "h\($0)", createdOn: day(1990, 1, 1)) }
        request.completionDays = (1...habits).map {
            WireHabitDays(habitId: Int64($0), dayNumbers: first..<(first + daysEach))
        }
        let bytes = request.serializedBytes()
        #expect(bytes.count < 1_400_000, "\(bytes.count) bytes for 1,300,000 completions")
        let decoded = try WireBuildHeatmapRequest(serializedBytes: bytes, limits: .default)
        let total = try decoded.completionDays.reduce(0) { $0 + (try $1.dayNumbers().count) }
        #expect(total == 1_300_000)
        // Well inside the budget: 2 MiB is enough.
        _ = try WireBuildHeatmapRequest(serializedBytes: bytes, limits: DecodingLimits(maxAllocationBytes: 2 << 20))

        // The classic form of a tenth of that already exceeds the default budget.
        var classic = WireBuildHeatmapRequest()
        classic.asOf = request.asOf
        classic.habits = request.habits
        let date = day(2024, 1, 1)
        classic.completions = (0..<160_000).map { WireCompletion(habitId: Int64($0 % habits + 1), date: date) }
        #expect {
            try WireBuildHeatmapRequest(serializedBytes: classic.serializedBytes(), limits: .default)
        } throws: { error in
            (error as? WireError)?.code == .tooLarge
        }
    }

    private func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
        try! CivilDate(year: year, month: month, day: day)
    }
}
