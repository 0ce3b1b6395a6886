import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// The per-user rest-period limit (`RestPeriodLimit`) and the per-habit schedule limit
/// (`ScheduleLimit`) through a real streakd, and the answers that list everything of a user at
/// every limit, with the longest names and notes, each in one frame.
@Suite struct DataLimitTests {
    /// The most bytes a frame's body may have after its kind and stream id.
    static let frameRoom = FrameDecoder.defaultMaxFrameSize - 5

    /// `count` schedule entries of every weekday, a week apart from 2000-01-01 (seven packed
    /// weekdays: the longest entry).
    static func schedule(_ count: Int) throws -> [WireScheduleEntry] {
        try (0..<count).map {
            WireScheduleEntry(effectiveFrom: try day("2000-01-01").adding(days: 7 * $0), weekdays: Weekday.allCases)
        }
    }

    @Test func theWorstFirstExportPageFitsAFrameAndTheDecodingBudget() throws {
        // Every field at its longest: the largest ids, dates of year 9999, 800-byte names and
        // notes, seven weekdays an entry, the largest page of records.
        let last = day("9999-12-31")
        func page(entries: Int) -> WireExportDataPage {
            let schedule = (0..<entries).map { _ in WireScheduleEntry(effectiveFrom: last, weekdays: Weekday.allCases) }
            return WireExportDataPage(
                settings: WireSettings(
                    timeZone: "America/Argentina/ComodRivadavia",
                    locale: "en_US_POSIX",
                    weekStart: .saturday,
                    minPercent: 100,
                    dayStartMinutes: 720
                ),
                habits: (0..<HabitLimit.perUser).map {
                    WireHabit(
                        id: .max,
                        name: AnswerBoundsTests.longName($0),
                        createdOn: last,
                        archivedOn: last,
                        schedule: schedule
                    )
                },
                restPeriods: (0..<RestPeriodLimit.perUser).map {
                    WireRestPeriod(id: .max, from: last, to: last, note: AnswerBoundsTests.longName($0))
                },
                completions: Array(repeating: WireCompletion(habitId: .max, date: last), count: 65_536),
                last: false,
                totalRecords: .max
            )
        }
        let worst = page(entries: ScheduleLimit.perHabit).serializedBytes()
        #expect(worst.count <= Self.frameRoom, "\(worst.count) bytes")
        // A client decodes it within its default budget (StreakClient decodes every answer so).
        #expect(throws: Never.self) { try WireExportDataPage(serializedBytes: worst, limits: .default) }
        // 50 entries a habit would fit the frame but not the budget; 100 would not even fit the frame.
        let fifty = page(entries: 50).serializedBytes()
        #expect(fifty.count <= Self.frameRoom)
        #expect(throws: WireError.self) { try WireExportDataPage(serializedBytes: fifty, limits: .default) }
        #expect(page(entries: 100).serializedBytes().count > Self.frameRoom)
        print("the worst first export page: \(worst.count) bytes of \(Self.frameRoom)")
    }

    @Test func aUserAtEveryLimitIsListedAndExportedInFramesAndRefusedOneMore() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let names = (0..<HabitLimit.perUser).map(AnswerBoundsTests.longName)
        let notes = (0...RestPeriodLimit.perUser).map(AnswerBoundsTests.longName)
        let first = day("2000-01-01")
        // One entry and one rest period too many: each refused alone, the rest applied.
        let filling = WireImportDataRequest(
            habits: try names.map {
                WireImportHabit(name: $0, createdOn: first, schedule: try Self.schedule(ScheduleLimit.perHabit + 1))
            },
            restPeriods: try notes.enumerated().map {
                let from = try first.adding(days: $0.offset)
                return WireRestPeriod(from: from, to: from, note: $0.element)
            }
        )
        let filled: WireImportDataResponse = try harness.call(.importData, filling)
        #expect(filled.habitsCreated == 1000 && filled.restPeriodsAdded == 1000)
        #expect(filled.schedulesSet == 1000 * Int32(ScheduleLimit.perHabit))
        #expect(filled.errorCount == 1001 && filled.errors.count == 1000)
        let lastEntry = try first.adding(days: 7 * ScheduleLimit.perHabit)
        #expect(
            filled.errors.allSatisfy {
                $0.field == "schedule" && $0.date == lastEntry
                    && $0.message == ScheduleLimit.reached(count: ScheduleLimit.perHabit)
            }
        )
        #expect(filled.habits.allSatisfy { $0.schedule.count == ScheduleLimit.perHabit })
        // The days done, in a second import: 66,000 completions, more than the largest page.
        let done = try (0..<66).map { try first.adding(days: $0) }
        let recorded: WireImportDataResponse = try harness.call(
            .importData,
            WireImportDataRequest(habits: names.map { WireImportHabit(name: $0, completions: done) })
        )
        #expect(recorded.habitsMatched == 1000 && recorded.completionsAdded == 66_000 && recorded.errorCount == 0)

        let listed: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest(includeArchived: true))
        #expect(listed.habits.count == 1000 && listed.habits.allSatisfy { $0.schedule.count == ScheduleLimit.perHabit })
        let periods: WireListRestPeriodsResponse = try harness.call(.listRestPeriods, WireListRestPeriodsRequest())
        #expect(periods.restPeriods.count == 1000 && periods.restPeriods.last?.note == notes[999])
        let pages = try AnswerBoundsTests.export(harness, pageSize: 65_536)
        let page = try #require(pages.first)
        #expect(page.habits.count == 1000 && page.restPeriods.count == 1000 && page.completions.count == 65_536)
        #expect(pages.count == 2 && pages.last?.last == true)
        print(
            "at every limit: ListHabits \(listed.serializedBytes().count) bytes, ListRestPeriods "
                + "\(periods.serializedBytes().count), the first export page \(page.serializedBytes().count)"
        )

        // One more rest period, one more schedule entry: RESOURCE_EXHAUSTED naming the limit.
        let more = try harness.status(.addRestPeriod, WireAddRestPeriodRequest(from: first, to: first, note: "more"))
        #expect(more.code == .resourceExhausted)
        #expect(
            more.message == "a user may have at most 1000 rest periods (this one has 1000): "
                + "remove one (RemoveRestPeriod) to make room"
        )
        let habit = try #require(listed.habits.first)
        let everyDay = WireWeekdaySet(weekdays: Weekday.allCases)
        let entry = try harness.status(
            .setHabitSchedule,
            WireSetHabitScheduleRequest(habitId: habit.id, weekdays: everyDay, effectiveFrom: lastEntry)
        )
        #expect(entry.code == .resourceExhausted)
        #expect(
            entry.message == "a habit may have at most 20 schedule entries (this one has 20): "
                + "set the schedule from one of its existing dates instead, which replaces that entry"
        )
        // Replacing an entry is always allowed; a removed rest period makes room for one.
        let replaced: WireSetHabitScheduleResponse = try harness.call(
            .setHabitSchedule,
            WireSetHabitScheduleRequest(
                habitId: habit.id,
                weekdays: WireWeekdaySet(weekdays: [.monday]),
                effectiveFrom: first
            )
        )
        #expect(
            replaced.habit?.schedule.count == ScheduleLimit.perHabit
                && replaced.habit?.schedule.first?.weekdays == [.monday]
        )
        let removed = try #require(periods.restPeriods.first)
        let _: WireRemoveRestPeriodResponse = try harness.call(
            .removeRestPeriod,
            WireRemoveRestPeriodRequest(id: removed.id)
        )
        let added: WireAddRestPeriodResponse = try harness.call(
            .addRestPeriod,
            WireAddRestPeriodRequest(from: first, to: first, note: "more")
        )
        #expect(added.restPeriod?.note == "more")
    }
}
