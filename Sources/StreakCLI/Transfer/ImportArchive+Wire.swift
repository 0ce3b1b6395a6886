import StreakCore
public import StreakWire

extension ImportArchive {
    /// The archive an export's pages describe: habits in id order with their completions and
    /// skips, rest periods by first day, the settings. A schedule entry without a day or weekdays
    /// (which the server never sends) is left out.
    public init(pages: [WireExportDataPage]) {
        self.init()
        guard let first = pages.first else { return }
        var completions: [Int64: [CivilDate]] = [:]
        var skips: [Int64: [CivilDate]] = [:]
        for page in pages {
            for completion in page.completions {
                if let date = completion.date { completions[completion.habitId, default: []].append(date) }
            }
            for skip in page.skips {
                if let date = skip.date { skips[skip.habitId, default: []].append(date) }
            }
        }
        habits = first.habits.sorted { $0.id < $1.id }.map { wire in
            HabitHistory(
                name: wire.name,
                createdOn: wire.createdOn,
                archivedOn: wire.archivedOn,
                schedule: wire.schedule.compactMap { entry in
                    guard let from = entry.effectiveFrom, let weekdays = try? WeekdaySet(entry.weekdays) else {
                        return nil
                    }
                    return ScheduleEntry(effectiveFrom: from, weekdays: weekdays)
                },
                completions: (completions[wire.id] ?? []).sorted(),
                skips: (skips[wire.id] ?? []).sorted()
            )
        }
        restPeriods = first.restPeriods.compactMap { wire in
            guard let from = wire.from, let to = wire.to else { return nil }
            return RestPeriod(from: from, to: to, note: wire.note)
        }
        if let wire = first.settings {
            settings = Settings(
                timeZone: wire.timeZone,
                locale: wire.locale,
                weekStart: wire.weekStart,
                minPercent: wire.minPercent == 0 ? nil : Int(wire.minPercent),
                dayStartMinutes: Int(wire.dayStartMinutes)
            )
        }
    }

    /// The number of completions and skips.
    public var recordCount: Int {
        habits.reduce(0) { $0 + $1.completions.count + $1.skips.count }
    }

    /// ImportData requests of at most about `maxRecords` completions and skips each: the settings
    /// and rest periods go with the first; a habit with more records than that is split over
    /// several requests (its later parts match it by name).
    public func requests(maxRecords: Int = 20_000) -> [WireImportDataRequest] {
        batches(maxRecords: maxRecords).map(\.request)
    }

    /// The requests of `requests(maxRecords:)`, each with the index in `habits` of each of its
    /// ImportHabits (a habit split over several requests has the same index in each).
    public func batches(maxRecords: Int = 20_000) -> [ImportBatchRequest] {
        var batches: [ImportBatchRequest] = []
        var current = ImportBatchRequest()
        var count = 0
        if let settings {
            current.request.settings = WireSettings(
                timeZone: settings.timeZone ?? "",
                locale: settings.locale ?? "",
                weekStart: settings.weekStart,
                minPercent: Int32(settings.minPercent ?? 0),
                dayStartMinutes: Int32(settings.dayStartMinutes ?? 0)
            )
        }
        current.request.restPeriods = restPeriods.map { WireRestPeriod(from: $0.from, to: $0.to, note: $0.note) }
        for (index, habit) in habits.enumerated() {
            var completions = habit.completions[...]
            var skips = habit.skips[...]
            repeat {
                let room = max(1, maxRecords - count)
                let takeCompletions = completions.prefix(room)
                completions = completions.dropFirst(takeCompletions.count)
                let takeSkips = skips.prefix(max(0, room - takeCompletions.count))
                skips = skips.dropFirst(takeSkips.count)
                current.request.habits.append(
                    WireImportHabit(
                        name: habit.name,
                        createdOn: habit.firstDay,
                        archivedOn: habit.archivedOn,
                        schedule: habit.schedule.map {
                            WireScheduleEntry(effectiveFrom: $0.effectiveFrom, weekdays: $0.weekdays.weekdays)
                        },
                        completions: Array(takeCompletions),
                        skips: Array(takeSkips)
                    )
                )
                current.habitIndexes.append(index)
                count += takeCompletions.count + takeSkips.count
                if count >= maxRecords {
                    batches.append(current)
                    current = ImportBatchRequest()
                    count = 0
                }
            } while !completions.isEmpty || !skips.isEmpty
        }
        let request = current.request
        if !request.habits.isEmpty || !request.restPeriods.isEmpty || request.settings != nil || batches.isEmpty {
            batches.append(current)
        }
        return batches
    }
}

/// One ImportData request of an archive and, for each of its ImportHabits, the index of the
/// archive's habit it carries (or part of).
public struct ImportBatchRequest: Sendable {
    /// The request.
    public var request = WireImportDataRequest()
    /// `habitIndexes[i]` is the archive's index of `request.habits[i]`.
    public var habitIndexes: [Int] = []

    /// Creates a batch.
    public init(request: WireImportDataRequest = WireImportDataRequest(), habitIndexes: [Int] = []) {
        self.request = request
        self.habitIndexes = habitIndexes
    }
}
