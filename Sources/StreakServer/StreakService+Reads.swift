import StreakCore
import StreakFraming
import StreakTransport
import StreakWire

extension StreakService {
    /// Answers a read from the user's cache, or computes it from a snapshot and caches it.
    func answerRead(_ method: WireMethod, _ request: IncomingRequest, user: UserState, responder: Responder) throws {
        let snapshot = user.snapshot(now: now())
        let key = ResponseKey(method: method, todayDayNumber: snapshot.today.dayNumber, message: request.message)
        if let bytes = user.cachedResponse(key) {
            responder.respond(to: request, status: .ok, message: bytes)
            return
        }
        let computer = ReadComputer(data: snapshot.data, today: snapshot.today)
        let bytes: [UInt8]
        if method == .getHeatmap {
            let answer = try computer.heatmap(request.message)
            bytes = answer.bytes
            user.cache(bytes, for: key, version: snapshot.version, recipe: answer.recipe)
        } else {
            bytes = try computer.response(method, request.message)
            user.cache(bytes, for: key, version: snapshot.version)
        }
        responder.respond(to: request, status: .ok, message: bytes)
    }
}

extension StreakService {
    /// GetStreak of every habit answered inline from the summary a write's answer computed since
    /// the last change (after a check-in, the next GetStreak would otherwise go to the slow path
    /// to walk the history again), and cached like any answer. False when there is none, or the
    /// request names habits or cannot be read (the slow path answers it, errors included).
    func answerSharedStreak(_ request: IncomingRequest, key: ResponseKey, user: UserState, responder: Responder) -> Bool
    {
        guard let message = try? WireGetStreakRequest(serializedBytes: request.message), message.habitIds.isEmpty,
            let (summary, version) = user.sharedStreak(asOf: message.asOf, now: now())
        else { return false }
        let bytes = WireGetStreakResponse(streak: WireStreakSummary(summary)).serializedBytes()
        user.cache(bytes, for: key, version: version)
        responder.respond(to: request, status: .ok, message: bytes)
        return true
    }
}

/// Computes the answers of the stateful reads from one consistent snapshot of a user's data.
struct ReadComputer {
    let data: UserData
    let today: CivilDate

    /// The encoded response of `method` to the request `bytes`.
    func response(_ method: WireMethod, _ bytes: [UInt8]) throws -> [UInt8] {
        switch method {
        case .listHabits:
            let request = try WireListHabitsRequest(serializedBytes: bytes)
            // Live means not archived as of today: a habit archived from a later day still counts today.
            let habits = data.index.habits.filter { habit in
                request.includeArchived || habit.archivedOn.map { $0 > today } ?? true
            }
            return WireListHabitsResponse(habits: habits.map(WireHabit.init)).serializedBytes()
        case .getDay:
            let request = try WireGetDayRequest(serializedBytes: bytes)
            guard let date = request.date else { throw ServiceError.invalidArgument("GetDay needs a date") }
            let data = try view(request.habitIds)
            let detail = DayDetail(data.index, date: date, threshold: data.threshold, locale: try locale(""))
            return WireGetDayResponse(day: WireDayDetail(detail)).serializedBytes()
        case .getHeatmap:
            return try heatmap(bytes).bytes
        case .getStreak:
            let request = try WireGetStreakRequest(serializedBytes: bytes)
            let data = try view(request.habitIds)
            let summary = data.streakSummary(asOf: request.asOf ?? today)
            return WireGetStreakResponse(streak: WireStreakSummary(summary)).serializedBytes()
        case .getWeekdayChart:
            return try weekdayChart(WireGetWeekdayChartRequest(serializedBytes: bytes))
        case .getMonthPage:
            return try monthPage(WireGetMonthPageRequest(serializedBytes: bytes))
        case .getSettings:
            _ = try WireGetSettingsRequest(serializedBytes: bytes)
            return WireGetSettingsResponse(settings: WireSettings(data.settings)).serializedBytes()
        case .listRestPeriods:
            _ = try WireListRestPeriodsRequest(serializedBytes: bytes)
            return WireListRestPeriodsResponse(restPeriods: data.restPeriods.map(WireRestPeriod.init))
                .serializedBytes()
        default:
            throw ServiceError.unimplemented(method.rawValue)
        }
    }

    /// GetHeatmap: the classic answer, or the packed one when the request asks, with the recipe that
    /// can patch it after a change of some days.
    func heatmap(_ bytes: [UInt8]) throws -> (bytes: [UInt8], recipe: HeatmapRecipe?) {
        let request = try WireGetHeatmapRequest(serializedBytes: bytes)
        let data = try view(request.habitIds)
        let options = HeatmapOptions(
            asOf: request.asOf ?? today,
            from: request.from,
            to: request.to,
            weekStart: try WeekStartResolver.weekday(request.weekStart, fallback: data.settings.weekStart),
            locale: try locale(request.locale),
            threshold: data.threshold,
            // A packed answer carries no labels: its decoder makes them from the counts.
            accessibilityLabels: request.accessibilityLabels && !request.packed
        )
        let heatmap = try HeatmapBuilder.build(data.index, options: options)
        let bytes =
            request.packed
            ? WireGetHeatmapResponse(packed: WirePackedHeatmap(heatmap, monthLabels: request.packedMonthLabels))
                .serializedBytes()
            : WireGetHeatmapResponse(heatmap: WireHeatmap(heatmap)).serializedBytes()
        guard bytes.count <= HeatmapRecipe.maximumBytes(packed: request.packed) else { return (bytes, nil) }
        return (bytes, HeatmapRecipe(options: options, habitIDs: Set(request.habitIds), packed: request.packed))
    }

    /// GetWeekdayChart: completions per weekday, per habit and in total.
    private func weekdayChart(_ request: WireGetWeekdayChartRequest) throws -> [UInt8] {
        let data = try view(request.habitIds)
        let chart = try WeekdayChartBuilder.build(
            data.index,
            asOf: request.asOf ?? today,
            from: request.from,
            to: request.to,
            locale: try locale(request.locale),
            includeTotal: request.includeTotal
        )
        return WireGetWeekdayChartResponse(chart: WireWeekdayChart(chart)).serializedBytes()
    }

    /// GetMonthPage: one month's calendar page.
    private func monthPage(_ request: WireGetMonthPageRequest) throws -> [UInt8] {
        let data = try view(request.habitIds)
        let asOf = request.asOf ?? today
        let month: YearMonth
        if request.year == 0 && request.month == 0 {
            month = YearMonth(asOf)
        } else {
            month = try YearMonth(year: Int(request.year), month: Int(request.month))
        }
        let profile = try locale(request.locale)
        let weekStart = try WeekStartResolver.weekday(request.weekStart, fallback: profile.firstWeekday)
        // The page spans at most the six days before the 1st and 42 days from it.
        var highlighted: Set<CivilDate> = []
        var levels: [CivilDate: IntensityLevel] = [:]
        var restDays: Set<CivilDate> = []
        var due: [CivilDate: Int32] = [:]
        let first = month.firstDay.dayNumber
        for number in (first - 7)...(first + 42) {
            guard let date = try? CivilDate(dayNumber: number) else { continue }
            let record = data.dayRecord(on: date)
            if record.contributes { highlighted.insert(date) }
            if record.level != .none { levels[date] = record.level }
            if record.isRestDay { restDays.insert(date) }
            if record.due != 0 { due[date] = Int32(record.due) }
        }
        let options = MonthPageOptions(
            weekStart: weekStart,
            locale: profile,
            today: asOf,
            selected: request.selected,
            highlighted: highlighted,
            levels: levels,
            restDays: restDays
        )
        var page = WireMonthPage(try MonthPageBuilder.build(month, options: options))
        for index in page.days.indices {
            if let date = page.days[index].date, let count = due[date] { page.days[index].due = count }
        }
        return WireGetMonthPageResponse(page: page).serializedBytes()
    }

    /// The user's data restricted to `habitIDs` (a per-habit view), or all of it when empty.
    /// - Throws: NOT_FOUND naming an id the user does not have.
    private func view(_ habitIDs: [Int64]) throws -> UserData {
        guard !habitIDs.isEmpty else { return data }
        var view = data
        view.index = try data.index.restricted(to: Set(habitIDs))
        return view
    }

    /// The locale profile a request names, or the user's when it names none.
    private func locale(_ identifier: String) throws -> LocaleProfile {
        try LocaleProfile.named(identifier.isEmpty ? data.settings.locale : identifier)
    }
}

/// Resolves a request's WeekStart message.
enum WeekStartResolver {
    /// The weekday the message names (explicitly or through a locale), or `fallback` when it names none.
    static func weekday(_ weekStart: WireWeekStart?, fallback: Weekday) throws -> Weekday {
        switch weekStart?.kind {
        case .weekday(let weekday): weekday
        case .locale(let identifier): try WeekStartChoice.locale(identifier).resolve()
        case nil: fallback
        }
    }
}
