import StreakCore
import StreakWire
import Testing

/// The compact heatmap encoding: packing core heatmaps and unpacking them gives the classic cells.
@Suite struct PackedHeatmapTests {
    /// The classic wire form of a core heatmap, as the server maps it (absent cells empty).
    static func classic(_ heatmap: Heatmap) -> WireHeatmap {
        WireHeatmap(
            from: heatmap.from,
            to: heatmap.to,
            weekStart: heatmap.weekStart,
            weeks: heatmap.weeks.map { week in
                WireHeatmapWeek(
                    start: week.start,
                    cells: week.cells.map { cell in
                        guard let cell else { return WireHeatmapCell() }
                        return WireHeatmapCell(
                            present: true,
                            date: cell.date,
                            completed: Int32(cell.completed),
                            active: Int32(cell.active),
                            level: Int32(cell.level.rawValue),
                            percent: Int32(cell.percentage),
                            accessibilityLabel: cell.accessibilityLabel ?? "",
                            due: Int32(cell.due),
                            rest: cell.isRestDay
                        )
                    }
                )
            },
            monthLabels: heatmap.monthLabels.map { WireMonthLabel(label: $0.text, weekIndex: Int32($0.weekIndex)) },
            legend: LegendEntry.standard.map {
                WireLegendEntry(
                    level: Int32($0.level.rawValue),
                    minPercent: Int32($0.minPercent),
                    maxPercent: Int32($0.maxPercent),
                    description: $0.description
                )
            }
        )
    }

    /// A random history: habits created and archived at random, some with schedules, completions,
    /// skips and rest periods, over 2023-2025.
    static func randomIndex(_ random: inout SplitMix64, habitCount: Int) throws -> CompletionIndex {
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let start = try CivilDate(year: 2023, month: 1, day: 1)
        var habits: [Habit] = []
        for id in 1...Int64(habitCount) {
            let created = try start.adding(days: below(500))
            let archived = below(4) == 0 ? try created.adding(days: 1 + below(400)) : nil
            var habit = try Habit(id: id, name: "h\(id)", createdOn: created, archivedOn: archived)
            if below(3) == 0 {
                let days = try WeekdaySet(Weekday.allCases.filter { _ in below(2) == 0 } + [.monday])
                habit.schedule = HabitSchedule([ScheduleEntry(effectiveFrom: created, weekdays: days)])
            }
            habits.append(habit)
        }
        var completions: [Completion] = []
        var skips: [Skip] = []
        for offset in 0..<1000 {
            let date = try start.adding(days: offset)
            for habit in habits {
                switch below(6) {
                case 0, 1, 2: completions.append(Completion(habitID: habit.id, date: date))
                case 3 where habit.isActive(on: date): skips.append(Skip(habitID: habit.id, date: date))
                default: break
                }
            }
        }
        var periods: [RestPeriod] = []
        for _ in 0..<below(4) {
            let from = try start.adding(days: below(900))
            periods.append(try RestPeriod(from: from, to: try from.adding(days: below(20))))
        }
        return CompletionIndex(habits: habits, completions: completions, skips: skips, restPeriods: periods)
    }

    static func randomOptions(_ random: inout SplitMix64) throws -> HeatmapOptions {
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let base = try CivilDate(year: 2023, month: 1, day: 1)
        let from = try base.adding(days: below(900))
        let to = try from.adding(days: below(500))
        // "Today" before, inside or after the range.
        let asOf = try from.adding(days: below(600) - 50)
        return HeatmapOptions(
            asOf: asOf,
            from: below(5) == 0 ? nil : from,
            to: below(5) == 0 ? nil : to,
            weekStart: Weekday.allCases[below(7)],
            accessibilityLabels: below(2) == 0
        )
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func unpackingGivesTheClassicCells(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let index = try Self.randomIndex(&random, habitCount: 1 + Int(random.next() % 6))
        for _ in 0..<25 {
            let options = try Self.randomOptions(&random)
            guard let heatmap = try? HeatmapBuilder.build(index, options: options) else { continue }
            let packed = WirePackedHeatmap(heatmap, monthLabels: true)
            // Through the wire and back, as a client gets it.
            let received = try WirePackedHeatmap(serializedBytes: packed.serializedBytes())
            #expect(received == packed)
            #expect(try received.unpacked(accessibilityLabels: options.accessibilityLabels) == Self.classic(heatmap))
            // Packing the classic answer gives the same bytes as packing the core heatmap.
            #expect(try WirePackedHeatmap(packing: Self.classic(heatmap), monthLabels: true) == packed)
            // Without month labels, everything else is the same.
            var withoutLabels = Self.classic(heatmap)
            withoutLabels.monthLabels = []
            let bare = WirePackedHeatmap(heatmap, monthLabels: false)
            #expect(bare.monthLabels.isEmpty)
            #expect(try bare.unpacked(accessibilityLabels: options.accessibilityLabels) == withoutLabels)
        }
    }

    @Test func aYearOfFiveDailyHabitsFitsIn600Bytes() throws {
        var random = SplitMix64(seed: 11)
        let start = try CivilDate(year: 2024, month: 1, day: 1)
        let habits = (1...5).map { Habit(id: Int64($0), name: "h\($0)", createdOn: start) }
        var completions: [Completion] = []
        for offset in 0..<366 {
            for habit in habits where random.next() % 10 < 6 {
                completions.append(Completion(habitID: habit.id, date: try start.adding(days: offset)))
            }
        }
        let index = CompletionIndex(habits: habits, completions: completions)
        let asOf = try CivilDate(year: 2024, month: 12, day: 31)
        let heatmap = try HeatmapBuilder.build(index, options: HeatmapOptions(asOf: asOf, from: start))
        let packed = WireGetHeatmapResponse(packed: WirePackedHeatmap(heatmap, monthLabels: false)).serializedBytes()
        let classic = WireGetHeatmapResponse(heatmap: Self.classic(heatmap)).serializedBytes()
        #expect(packed.count <= 600, "\(packed.count) bytes packed")
        #expect(classic.count > 8000, "\(classic.count) bytes classic")
    }

    @Test func manyHabitsDueUseExceptionsForCompleted() throws {
        // With more than 100 habits due, one percentage stands for several counts.
        let start = try CivilDate(year: 2024, month: 3, day: 1)
        let habits = (1...250).map { Habit(id: Int64($0), name: "h\($0)", createdOn: start) }
        var completions: [Completion] = []
        for offset in 0..<10 {
            let date = try start.adding(days: offset)
            for id in 1...(offset * 25 + 1) { completions.append(Completion(habitID: Int64(id), date: date)) }
        }
        completions += (1...249).map { Completion(habitID: Int64($0), date: try! start.adding(days: 10)) }
        let index = CompletionIndex(habits: habits, completions: completions)
        let options = HeatmapOptions(asOf: try start.adding(days: 10), from: start, accessibilityLabels: true)
        let heatmap = try HeatmapBuilder.build(index, options: options)
        let packed = WirePackedHeatmap(heatmap, monthLabels: true)
        #expect(!packed.completedExceptions.isEmpty)
        #expect(try packed.unpacked(accessibilityLabels: true) == Self.classic(heatmap))
    }

    @Test func noPresentDayStillHasItsWeeks() throws {
        let index = CompletionIndex(habits: [], completions: [])
        let options = HeatmapOptions(
            asOf: try CivilDate(year: 2024, month: 1, day: 1),
            from: try CivilDate(year: 2024, month: 2, day: 1),
            to: try CivilDate(year: 2024, month: 3, day: 31)
        )
        let heatmap = try HeatmapBuilder.build(index, options: options)
        let packed = WirePackedHeatmap(heatmap, monthLabels: true)
        #expect(packed.days == 0 && packed.levels.isEmpty && packed.percents.isEmpty && packed.active.isEmpty)
        #expect(try packed.unpacked() == Self.classic(heatmap))
    }

    /// The worked example of docs/PROTOCOL.md section 9.5, byte for byte.
    @Test func theDocumentedExample() throws {
        let from = try CivilDate(year: 2024, month: 3, day: 1)  // a Friday
        let habits = [
            Habit(id: 1, name: "Read", createdOn: from),
            Habit(id: 2, name: "Run", createdOn: try from.adding(days: 2)),
        ]
        var run = habits[1]
        run.schedule = HabitSchedule([
            ScheduleEntry(effectiveFrom: try from.adding(days: 2), weekdays: try WeekdaySet([.monday, .wednesday]))
        ])
        let completions = [
            Completion(habitID: 1, date: from),
            Completion(habitID: 1, date: try from.adding(days: 3)),
            Completion(habitID: 2, date: try from.adding(days: 3)),
            Completion(habitID: 2, date: try from.adding(days: 5)),
        ]
        let index = CompletionIndex(habits: [habits[0], run], completions: completions)
        let options = HeatmapOptions(
            asOf: try from.adding(days: 5),
            from: from,
            to: try from.adding(days: 9),
            weekStart: .monday
        )
        let heatmap = try HeatmapBuilder.build(index, options: options)
        let packed = WirePackedHeatmap(heatmap, monthLabels: false)
        #expect(packed.days == 6)
        #expect(packed.levels == [0xC3, 0x08])
        #expect(packed.percents == [100, 0, 0, 100, 0, 50])
        #expect(packed.active == [0x1A, 0x11, 0x0A])
        #expect(packed.excused == [0x08, 0x09, 0x18, 0x09])
        #expect(packed.completedExceptions.isEmpty)
        let bytes = WireGetHeatmapResponse(packed: packed).serializedBytes()
        #expect(
            bytes == [
                0x12, 0x2D,
                0x0A, 0x07, 0x08, 0xE8, 0x0F, 0x10, 0x03, 0x18, 0x01,
                0x12, 0x07, 0x08, 0xE8, 0x0F, 0x10, 0x03, 0x18, 0x0A,
                0x18, 0x02,
                0x20, 0x06,
                0x2A, 0x02, 0xC3, 0x08,
                0x32, 0x06, 0x64, 0x00, 0x00, 0x64, 0x00, 0x32,
                0x3A, 0x03, 0x1A, 0x11, 0x0A,
                0x42, 0x04, 0x08, 0x09, 0x18, 0x09,
            ],
            "\(bytes.map { String($0, radix: 16) })"
        )
        #expect(
            try packed.unpacked()
                == {
                    var c = Self.classic(heatmap)
                    c.monthLabels = []
                    return c
                }()
        )
        // The classic answer to the same request, as section 9.5 says.
        #expect(WireGetHeatmapResponse(heatmap: Self.classic(heatmap)).serializedBytes().count == 239)
    }

    @Test func badPackedHeatmapsAreRefused() throws {
        let from = try CivilDate(year: 2024, month: 3, day: 1)
        let good = WirePackedHeatmap(
            from: from,
            to: try from.adding(days: 9),
            weekStart: .monday,
            days: 6,
            levels: [0xC3, 0x08],
            percents: [100, 0, 0, 100, 0, 50],
            active: [0x1A, 0x11, 0x0A],
            excused: [0x08, 0x09, 0x18, 0x09]
        )
        _ = try good.unpacked()
        func refused(_ change: (inout WirePackedHeatmap) -> Void, _ fragment: String) {
            var bad = good
            change(&bad)
            #expect {
                try bad.unpacked()
            } throws: { error in
                (error as? WireError)?.message.contains(fragment) ?? false
            }
        }
        refused({ $0.from = nil }, "from and to are required")
        refused({ $0.weekStart = nil }, "week_start is required")
        refused({ $0.days = 11 }, "more than the range holds")
        refused({ $0.levels = [0xC3] }, "levels has 1 bytes")
        refused({ $0.levels = [0xC3, 0x18] }, "unused bits")
        refused({ $0.percents[2] = 101 }, "percents: 101")
        refused({ $0.percents.removeLast() }, "percents has 5 bytes")
        refused({ $0.active = [0x1A, 0x11] }, "active: the runs cover 5 of 6")
        refused({ $0.active = [0x1A, 0x11, 0x12] }, "active: the runs cover more than 6")
        refused({ $0.active = [0x02, 0x32] }, "active: a run of length 0")
        refused({ $0.active = [0x1A, 0x82] }, "active: truncated varint at byte 1")
        refused({ $0.excused = [0x37, 0x80, 0x80, 0x80, 0x80, 0x10] }, "excused: overlong varint at byte 1")
        refused({ $0.excused = [0x33] }, "excused: more than active")
        refused({ $0.completedExceptions = [0x02, 0x00, 0x01, 0x00] }, "out of order")
        refused({ $0.completedExceptions = [0x06, 0x00] }, "past the last")
        refused({ $0.completedExceptions = [0x05, 0x03] }, "completed: more than due")
    }

    @Test func varints() throws {
        for value: UInt32 in [0, 1, 127, 128, 300, 16383, 16384, 1 << 28, .max] {
            var bytes: [UInt8] = []
            PackedVarint.append(value, to: &bytes)
            var reader = PackedVarintReader(bytes)
            #expect(try reader.next() == value)
            #expect(reader.isAtEnd)
        }
        var bytes: [UInt8] = []
        PackedVarint.append(300, to: &bytes)
        #expect(bytes == [0xAC, 0x02])
        for value: Int32 in [0, -1, 1, -2, 2, 19_783, -719_162, .max, .min] {
            #expect(PackedVarint.unZigZag(PackedVarint.zigZag(value)) == value)
        }
        #expect(PackedVarint.zigZag(-1) == 1 && PackedVarint.zigZag(1) == 2 && PackedVarint.zigZag(19_783) == 39_566)
        var overlong = PackedVarintReader([0xFF, 0xFF, 0xFF, 0xFF, 0x10])
        #expect(throws: PackedVarintError.overlong(at: 0)) { try overlong.next() }
        var sixBytes = PackedVarintReader([0x80, 0x80, 0x80, 0x80, 0x80, 0x00])
        #expect(throws: PackedVarintError.overlong(at: 0)) { try sixBytes.next() }
        var truncated = PackedVarintReader([0x05, 0x80])
        #expect(try truncated.next() == 5)
        #expect(throws: PackedVarintError.truncated(at: 1)) { try truncated.next() }
    }
}
