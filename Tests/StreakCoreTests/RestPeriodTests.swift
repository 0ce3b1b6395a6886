import StreakCore
import Testing

@Suite("Rest periods")
struct RestPeriodTests {
    @Test(
        "the end is on or after the start, and a period spans at most the heatmap's 20-year limit",
        arguments: [
            ("2024-03-05", "2024-03-04", "a rest period ends (2024-03-04) before it starts (2024-03-05)"),
            ("2024-03-05", "2024-03-05", nil), ("2024-03-05", "2024-03-09", nil),
            // 7,320 days (20 x 366) is the limit, as for a heatmap's range.
            ("2000-01-01", "2020-01-15", nil),
            (
                "2000-01-01", "2020-01-16",
                "a rest period spans at most 7320 days, about 20 years (2000-01-01 to 2020-01-16 is 7321 days)"
            ),
        ] as [(String, String, String?)]
    )
    func validation(from: String, to: String, error: String?) {
        #expect(RestPeriod.maximumDays == 7320)
        guard let error else {
            #expect((try? RestPeriod(from: day(from), to: day(to)))?.description == "\(from)..\(to)")
            return
        }
        let thrown = #expect(throws: CoreError.self) { try RestPeriod(from: day(from), to: day(to)) }
        #expect(thrown?.code == .invalidArgument && thrown?.message == error)
    }

    @Test("overlapping and touching periods merge; adding, removing and membership are inclusive")
    func membership() {
        var data = index(
            habits: [habit(1)],
            completions: [],
            rest: ["2024-03-04..2024-03-06", "2024-03-05..2024-03-08"]
        )
        #expect(!data.isInRestPeriod(day("2024-03-03")))
        #expect(data.isInRestPeriod(day("2024-03-04")) && data.isInRestPeriod(day("2024-03-08")))
        #expect(!data.isInRestPeriod(day("2024-03-09")))
        let added = data.addRestPeriod(restPeriod("2024-03-09..2024-03-09"))
        let addedAgain = data.addRestPeriod(restPeriod("2024-03-09..2024-03-09"))
        #expect(added && !addedAgain)
        #expect(data.isInRestPeriod(day("2024-03-09")))
        let removed = data.removeRestPeriod(restPeriod("2024-03-04..2024-03-06"))
        let removedAgain = data.removeRestPeriod(restPeriod("2024-03-04..2024-03-06"))
        #expect(removed && !removedAgain)
        #expect(!data.isInRestPeriod(day("2024-03-04")) && data.isInRestPeriod(day("2024-03-05")))
        #expect(data.restPeriods.count == 2)
    }
}
