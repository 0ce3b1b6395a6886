import StreakCore
import StreakWire

/// A named message value used by the table-driven tests.
struct WireSample: Sendable, CustomStringConvertible {
    let name: String
    let value: any WireMessage

    init(_ name: String, _ value: any WireMessage) {
        self.name = name
        self.value = value
    }

    var description: String { name }
}

/// Test values: for every message of proto/streak/v1 one sample with every field set (edge values
/// included), plus a few variants (absent optionals, empty repeated, extreme dates, Unicode names).
enum WireSamples {
    static func date(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
        try! CivilDate(year: year, month: month, day: day)
    }

    static let names = [
        "Read 📚", "🔥🔥🔥", "Läufe", "e\u{301}te\u{301}", "👩‍👩‍👧‍👦 family", "日本語の練習", "עברית",
        "Z\u{0351}\u{036B}a\u{0309}", "\"quoted\" \\ back", "tab\there", String(repeating: "x", count: 200),
    ]

    static let habit = WireHabit(
        id: 42,
        name: "Read 📚",
        createdOn: date(2024, 2, 29),
        archivedOn: date(9999, 12, 31),
        schedule: [
            WireScheduleEntry(effectiveFrom: date(2024, 2, 29), weekdays: [.monday, .wednesday, .friday]),
            WireScheduleEntry(effectiveFrom: date(2025, 1, 1), weekdays: Weekday.allCases),
        ]
    )
    static let liveHabit = WireHabit(id: .max, name: "e\u{301}te\u{301}", createdOn: .min)
    static let completion = WireCompletion(habitId: 7, date: date(2024, 12, 31))
    static let dayRecord = WireDayRecord(
        date: date(2024, 3, 5),
        completedHabitIds: [1, 2, .max],
        completed: 4,
        active: 5,
        percent: 80,
        level: 2,
        contributing: true,
        due: 5,
        rest: true,
        skippedHabitIds: [3, .max - 1]
    )
    static let streak = WireStreakSummary(
        asOf: date(2024, 3, 5),
        current: 3,
        currentStart: date(2024, 3, 3),
        longest: 10,
        longestStart: date(2024, 1, 1),
        longestEnd: date(2024, 1, 10),
        todayPending: true
    )
    static let cell = WireHeatmapCell(
        present: true,
        date: date(2024, 1, 1),
        completed: 1,
        active: 3,
        level: 1,
        percent: 33,
        accessibilityLabel: "January 1: 33% completed, 1 of 3 habits",
        due: 3,
        rest: true
    )
    static let week = WireHeatmapWeek(start: date(2024, 1, 1), cells: [cell, WireHeatmapCell(), cell])
    static let heatmap = WireHeatmap(
        from: date(2024, 1, 1),
        to: date(2024, 12, 31),
        weekStart: .monday,
        weeks: [week, week],
        monthLabels: [WireMonthLabel(label: "Jan", weekIndex: 0), WireMonthLabel(label: "Mär", weekIndex: 9)],
        legend: [WireLegendEntry(level: 1, minPercent: 1, maxPercent: 49, description: "1-49%")]
    )
    static let packedHeatmap = WirePackedHeatmap(
        from: date(2024, 3, 1),
        to: date(2024, 3, 10),
        weekStart: .monday,
        days: 6,
        levels: [0xC3, 0x08],
        percents: [100, 0, 0, 100, 0, 50],
        active: [0x1A, 0x11, 0x0A],
        excused: [0x08, 0x09, 0x18, 0x09],
        completedExceptions: [0x05, 0x01],
        monthLabels: [WireMonthLabel(label: "Mär", weekIndex: 0)]
    )
    static let habitDays = WireHabitDays(habitId: .max, dayDeltas: [0x01, 0xC8, 0x9A, 0x01, 0x01, 0x03])
    static let monthDay = WireMonthDay(
        date: date(2024, 2, 29),
        day: 29,
        inMonth: true,
        today: true,
        selected: true,
        highlighted: true,
        level: 3,
        due: 2,
        rest: true
    )
    static let monthPage = WireMonthPage(
        year: 2024,
        month: 2,
        title: "February 2024",
        weekdaySymbols: ["Sun", "", "Tue", "Mi", "木", "Fri", "Sat"],
        days: [monthDay, WireMonthDay(date: date(2024, 3, 1), day: 1)],
        previousYear: 2024,
        previousMonth: 1,
        nextYear: 2024,
        nextMonth: 3,
        weekStart: .sunday
    )
    static let dayDetail = WireDayDetail(
        date: date(2024, 3, 5),
        completedHabits: [habit, liveHabit],
        completed: 4,
        active: 5,
        percent: 80,
        level: 2,
        contributing: true,
        accessibilityLabel: "March 5: 80% completed, 4 of 5 habits",
        due: 5,
        rest: true,
        skippedHabits: [liveHabit],
        openHabits: [habit]
    )
    static let settings = WireSettings(
        timeZone: "Europe/Berlin",
        locale: "de_DE",
        weekStart: .saturday,
        minPercent: 100,
        dayStartMinutes: 720
    )
    static let restPeriod = WireRestPeriod(id: 12, from: date(2024, 2, 28), to: date(2024, 3, 1), note: "Ski 🎿")
    static let series = WireWeekdaySeries(
        habitId: 3,
        name: "🔥",
        total: false,
        counts: Weekday.allCases.map { WireWeekdayCount(weekday: $0, shortName: "d\($0.rawValue)", count: 0) }
    )
    static let chart = WireWeekdayChart(
        from: .min,
        to: .max,
        series: [series, WireWeekdaySeries(name: "Total", total: true)]
    )
    static let weekStartWeekday = WireWeekStart(kind: .weekday(.friday))
    static let weekStartLocale = WireWeekStart(kind: .locale("ar_EG"))

    /// One sample (or more) per message; `RoundTripTests` checks that every message is present.
    static let all: [WireSample] = [
        WireSample("Date", WireDate(year: 2024, month: 2, day: 29)),
        WireSample("Date.negative", WireDate(year: -1, month: 13, day: 0)),
        WireSample("WeekStart.weekday", weekStartWeekday),
        WireSample("WeekStart.locale", weekStartLocale),
        WireSample("WeekStart.emptyLocale", WireWeekStart(kind: .locale(""))),
        WireSample("Habit", habit),
        WireSample("Habit.live", liveHabit),
        WireSample("Completion", completion),
        WireSample("DayRecord", dayRecord),
        WireSample("StreakSummary", streak),
        WireSample("StreakSummary.none", WireStreakSummary(asOf: .max)),
        WireSample("HeatmapCell", cell),
        WireSample("HeatmapWeek", week),
        WireSample("MonthLabel", WireMonthLabel(label: "Jan", weekIndex: 52)),
        WireSample("LegendEntry", WireLegendEntry(level: 3, minPercent: 100, maxPercent: 100, description: "100%")),
        WireSample("Heatmap", heatmap),
        WireSample("WeekdayCount", WireWeekdayCount(weekday: .sunday, shortName: "So", count: .max)),
        WireSample("WeekdaySeries", series),
        WireSample("WeekdayChart", chart),
        WireSample("MonthDay", monthDay),
        WireSample("MonthPage", monthPage),
        WireSample("DayDetail", dayDetail),
        WireSample("Settings", settings),
        WireSample(
            "CreateHabitRequest",
            WireCreateHabitRequest(
                name: "👩‍👩‍👧‍👦 family",
                createdOn: .max,
                schedule: WireWeekdaySet(weekdays: [.saturday, .sunday])
            )
        ),
        WireSample("CreateHabitRequest.emptySchedule", WireCreateHabitRequest(name: "x", schedule: WireWeekdaySet())),
        WireSample("WeekdaySet", WireWeekdaySet(weekdays: Weekday.allCases.reversed())),
        WireSample("ScheduleEntry", WireScheduleEntry(effectiveFrom: .min, weekdays: [.tuesday])),
        WireSample("Skip", WireSkip(habitId: 8, date: date(2024, 2, 29))),
        WireSample("RestPeriod", restPeriod),
        WireSample(
            "SetHabitScheduleRequest",
            WireSetHabitScheduleRequest(
                habitId: 4,
                weekdays: WireWeekdaySet(weekdays: [.monday]),
                effectiveFrom: date(2024, 3, 4)
            )
        ),
        WireSample("SetHabitScheduleResponse", WireSetHabitScheduleResponse(habit: habit)),
        WireSample("DeleteHabitRequest", WireDeleteHabitRequest(habitId: .max)),
        WireSample("DeleteHabitResponse", WireDeleteHabitResponse(habit: habit, completions: 3_650, skips: .max)),
        WireSample("UnarchiveHabitRequest", WireUnarchiveHabitRequest(habitId: 1)),
        WireSample("UnarchiveHabitResponse", WireUnarchiveHabitResponse(habit: liveHabit)),
        WireSample("ExportDataRequest", WireExportDataRequest(pageSize: 65_536)),
        WireSample(
            "ExportDataPage",
            WireExportDataPage(
                settings: settings,
                habits: [habit, liveHabit],
                restPeriods: [restPeriod],
                completions: [completion, WireCompletion(habitId: 2, date: .min)],
                skips: [WireSkip(habitId: 8, date: date(2024, 2, 29))],
                last: true,
                totalRecords: 3
            )
        ),
        WireSample(
            "ImportHabit",
            WireImportHabit(
                name: "Lire, «vite» \"ok\"",
                createdOn: .min,
                archivedOn: .max,
                schedule: [WireScheduleEntry(effectiveFrom: date(2024, 3, 4), weekdays: [.monday, .friday])],
                completions: [date(2024, 2, 29), .max],
                skips: [.min]
            )
        ),
        WireSample(
            "ImportDataRequest",
            WireImportDataRequest(
                habits: [WireImportHabit(name: "x", completions: [date(2024, 1, 1)])],
                restPeriods: [restPeriod],
                settings: settings
            )
        ),
        WireSample(
            "ImportRecordError",
            WireImportRecordError(habitIndex: -1, field: "rest_periods", date: date(2024, 7, 1), message: "ends before")
        ),
        WireSample(
            "ImportDataResponse",
            WireImportDataResponse(
                habitsCreated: 1,
                habitsMatched: 2,
                completionsAdded: 100_000,
                skipsAdded: 3,
                restPeriodsAdded: 1,
                schedulesSet: 2,
                settingsChanged: true,
                errors: [WireImportRecordError(habitIndex: 0, field: "completions", date: .min, message: "before")],
                habits: [habit, WireHabit()]
            )
        ),
        WireSample("SkipHabitRequest", WireSkipHabitRequest(habitId: 2, date: date(2024, 3, 3), asOf: .max)),
        WireSample("UnskipHabitRequest", WireUnskipHabitRequest(habitId: 2, date: .min, asOf: date(2024, 3, 5))),
        WireSample(
            "AddRestPeriodRequest",
            WireAddRestPeriodRequest(from: date(2024, 7, 1), to: date(2024, 7, 14), note: "Urlaub", asOf: .max)
        ),
        WireSample("AddRestPeriodResponse", WireAddRestPeriodResponse(restPeriod: restPeriod, streak: streak)),
        WireSample("ListRestPeriodsRequest", WireListRestPeriodsRequest()),
        WireSample(
            "ListRestPeriodsResponse",
            WireListRestPeriodsResponse(restPeriods: [restPeriod, WireRestPeriod(id: 1)])
        ),
        WireSample("RemoveRestPeriodRequest", WireRemoveRestPeriodRequest(id: 12, asOf: date(2024, 3, 5))),
        WireSample("RemoveRestPeriodResponse", WireRemoveRestPeriodResponse(restPeriod: restPeriod, streak: streak)),
        WireSample("CreateHabitResponse", WireCreateHabitResponse(habit: habit)),
        WireSample("ListHabitsRequest", WireListHabitsRequest(includeArchived: true)),
        WireSample(
            "ListHabitsResponse",
            WireListHabitsResponse(
                habits: names.enumerated().map {
                    WireHabit(id: Int64($0.offset + 1), name: $0.element, createdOn: date(2020, 1, 1))
                }
            )
        ),
        WireSample("RenameHabitRequest", WireRenameHabitRequest(habitId: 1, name: "Z\u{0351}\u{036B}a\u{0309}")),
        WireSample("RenameHabitResponse", WireRenameHabitResponse(habit: liveHabit)),
        WireSample("ArchiveHabitRequest", WireArchiveHabitRequest(habitId: -1, archivedOn: .min)),
        WireSample("ArchiveHabitResponse", WireArchiveHabitResponse(habit: habit)),
        WireSample("RecordCompletionRequest", WireRecordCompletionRequest(habitId: 9, date: .min, asOf: .max)),
        WireSample("RemoveCompletionRequest", WireRemoveCompletionRequest(habitId: 9, date: date(2023, 6, 30))),
        WireSample("CompletionResponse", WireCompletionResponse(day: dayRecord, streak: streak, changed: true)),
        WireSample(
            "BatchCompletionsRequest",
            WireBatchCompletionsRequest(
                record: [completion, completion],
                remove: [WireCompletion(habitId: 1)],
                asOf: date(2024, 1, 31)
            )
        ),
        WireSample(
            "BatchCompletionsResponse",
            WireBatchCompletionsResponse(
                days: [dayRecord, WireDayRecord()],
                streak: streak,
                changed: -3
            )
        ),
        WireSample("GetDayRequest", WireGetDayRequest(date: date(2000, 2, 29), habitIds: [1, 3])),
        WireSample("GetDayResponse", WireGetDayResponse(day: dayDetail)),
        WireSample(
            "GetHeatmapRequest",
            WireGetHeatmapRequest(
                from: date(2023, 4, 1),
                to: date(2024, 3, 31),
                asOf: date(2024, 3, 31),
                weekStart: weekStartLocale,
                locale: "en_GB",
                accessibilityLabels: true,
                habitIds: [7],
                packed: true,
                packedMonthLabels: true
            )
        ),
        WireSample("GetHeatmapResponse", WireGetHeatmapResponse(heatmap: heatmap, packed: packedHeatmap)),
        WireSample("PackedHeatmap", packedHeatmap),
        WireSample("HabitDays", habitDays),
        WireSample("GetStreakRequest", WireGetStreakRequest(asOf: date(2024, 3, 5), habitIds: [1, .max])),
        WireSample("GetStreakResponse", WireGetStreakResponse(streak: streak)),
        WireSample(
            "GetWeekdayChartRequest",
            WireGetWeekdayChartRequest(
                from: date(2024, 1, 1),
                to: date(2024, 6, 30),
                asOf: date(2024, 7, 1),
                locale: "ar_EG",
                includeTotal: true,
                habitIds: [2, 5]
            )
        ),
        WireSample("GetWeekdayChartResponse", WireGetWeekdayChartResponse(chart: chart)),
        WireSample(
            "GetMonthPageRequest",
            WireGetMonthPageRequest(
                year: 2024,
                month: 12,
                selected: date(2024, 12, 24),
                asOf: date(2024, 12, 1),
                weekStart: weekStartWeekday,
                locale: "de_DE",
                habitIds: [9]
            )
        ),
        WireSample("GetMonthPageResponse", WireGetMonthPageResponse(page: monthPage)),
        WireSample("GetSettingsRequest", WireGetSettingsRequest()),
        WireSample("GetSettingsResponse", WireGetSettingsResponse(settings: settings)),
        WireSample(
            "UpdateSettingsRequest",
            WireUpdateSettingsRequest(
                timeZone: "America/New_York",
                locale: "en_US",
                weekStart: .monday,
                minPercent: 1,
                clearMinPercent: true,
                setDayStart: true,
                dayStartMinutes: 180
            )
        ),
        WireSample("UpdateSettingsResponse", WireUpdateSettingsResponse(settings: WireSettings())),
        WireSample("WatchRequest", WireWatchRequest(asOf: date(2024, 3, 5))),
        WireSample("WatchRequest.lifecycle", WireWatchRequest(lifecycleEvents: true)),
        WireSample("WatchEvent", WireWatchEvent(day: dayRecord, streak: streak)),
        WireSample("WatchEvent.subscribed", WireWatchEvent(streak: streak, kind: .subscribed)),
        WireSample("WatchEvent.dayStarted", WireWatchEvent(day: dayRecord, streak: streak, kind: .dayStarted)),
        WireSample("WatchEvent.settingsChanged", WireWatchEvent(streak: streak, kind: .settingsChanged)),
        WireSample("WatchEvent.unknownKind", WireWatchEvent(kind: WireWatchEvent.Kind(rawValue: 9))),
        WireSample(
            "BuildMonthLabelsRequest",
            WireBuildMonthLabelsRequest(
                weekStarts: [date(2024, 1, 1), date(2024, 1, 8), date(2024, 2, 1), date(2024, 3, 1)],
                locale: "fr_FR"
            )
        ),
        WireSample(
            "BuildMonthLabelsResponse",
            WireBuildMonthLabelsResponse(labels: [
                WireMonthLabel(label: "Jan", weekIndex: 0), WireMonthLabel(label: "Mar", weekIndex: 3),
            ])
        ),
        WireSample(
            "BuildHeatmapRequest",
            WireBuildHeatmapRequest(
                habits: [habit, liveHabit],
                completions: [completion],
                from: date(2024, 1, 1),
                to: date(2024, 12, 31),
                asOf: date(2024, 6, 1),
                weekStart: weekStartWeekday,
                locale: "en_US",
                minPercent: 50,
                accessibilityLabels: true,
                skips: [WireSkip(habitId: 42, date: date(2024, 3, 1))],
                restPeriods: [restPeriod],
                packed: true,
                packedMonthLabels: true,
                completionDays: [habitDays, WireHabitDays(habitId: 3)]
            )
        ),
        WireSample(
            "BuildHeatmapResponse",
            WireBuildHeatmapResponse(heatmap: heatmap, streak: streak, packed: packedHeatmap)
        ),
        WireSample(
            "BuildMonthPageRequest",
            WireBuildMonthPageRequest(
                year: 9999,
                month: 12,
                selected: .max,
                asOf: .max,
                weekStart: weekStartLocale,
                locale: "ja_JP",
                highlighted: [.max, .min]
            )
        ),
        WireSample("BuildMonthPageResponse", WireBuildMonthPageResponse(page: monthPage)),
        WireSample("PingRequest", WirePingRequest(payload: [0, 1, 2, 0xFF, 0x80, 0])),
        WireSample("PingResponse", WirePingResponse(payload: Array(0...255), serving: true)),
        WireSample("GetServerInfoRequest", WireGetServerInfoRequest()),
        WireSample(
            "GetServerInfoResponse",
            WireGetServerInfoResponse(
                version: "1.0.0-dev",
                uptimeSeconds: .max,
                storage: "sqlite",
                requestsTotal: .max,
                errorsTotal: 1,
                connectionsCurrent: 0,
                connectionsTotal: UInt64(UInt32.max) + 1,
                protocolVersion: .max
            )
        ),
        WireSample(
            "GetServerInfoResponse with users and failing upkeep",
            WireGetServerInfoResponse(
                version: "0.1.0",
                storage: "postgres",
                usersHeld: 3,
                usersEvicted: .max,
                userMemoryBytes: 1 << 40,
                userMemoryBudgetBytes: 256 << 20,
                usersDropped: 1,
                changeNoticesTotal: 70_000,
                storageUpkeepFailing: [upkeepFailure, WireStorageUpkeepFailure(job: "listen_for_changes")]
            )
        ),
        WireSample("StorageUpkeepFailure", upkeepFailure),
    ]

    static let upkeepFailure = WireStorageUpkeepFailure(
        job: "prune_change_log",
        description: "pruning the change log",
        failingSinceUnixSeconds: -1,
        error: "internalFailure",
        detail: "PostgreSQL query failed (42501)",
        engineCode: "42501"
    )

    /// Every message type, each at its default (every field absent, zero or empty).
    static let defaults: [WireSample] = all.reduce(into: [WireSample]()) { result, sample in
        let name = "\(type(of: sample.value))"
        if !result.contains(where: { $0.name == name }) {
            result.append(WireSample(name, type(of: sample.value).init()))
        }
    }
}
