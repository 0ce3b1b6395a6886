public import StreakCore
public import StreakWire

/// One typed method per unary rpc of `streak.v1.Streaks`.
extension StreakClient {
    /// CreateHabit: a new habit, active from `createdOn` (default: today in the user's zone).
    ///
    /// A name the server would refuse (`HabitName`: blank, over 200 Unicode scalars, a control
    /// character) throws INVALID_ARGUMENT (origin `.local`) before anything is sent.
    public func createHabit(name: String, createdOn: CivilDate? = nil) async throws(StreakClientError) -> WireHabit {
        let response: WireCreateHabitResponse = try await call(
            .createHabit,
            WireCreateHabitRequest(name: name, createdOn: createdOn)
        )
        return response.habit ?? WireHabit()
    }

    /// ListHabits: the user's habits by id, archived ones only when asked.
    public func listHabits(includeArchived: Bool = false) async throws(StreakClientError) -> [WireHabit] {
        let response: WireListHabitsResponse = try await call(
            .listHabits,
            WireListHabitsRequest(includeArchived: includeArchived)
        )
        return response.habits
    }

    /// RenameHabit. A name the server would refuse throws INVALID_ARGUMENT, unsent (as `createHabit`).
    public func renameHabit(id: Int64, to name: String) async throws(StreakClientError) -> WireHabit {
        let response: WireRenameHabitResponse = try await call(
            .renameHabit,
            WireRenameHabitRequest(habitId: id, name: name)
        )
        return response.habit ?? WireHabit()
    }

    /// ArchiveHabit: inactive from `on` (default: today in the user's zone).
    public func archiveHabit(id: Int64, on date: CivilDate? = nil) async throws(StreakClientError) -> WireHabit {
        let response: WireArchiveHabitResponse = try await call(
            .archiveHabit,
            WireArchiveHabitRequest(habitId: id, archivedOn: date)
        )
        return response.habit ?? WireHabit()
    }

    /// RecordCompletion (idempotent): the new day record and streak.
    public func recordCompletion(
        habitID: Int64,
        date: CivilDate? = nil,
        asOf: CivilDate? = nil
    ) async throws(StreakClientError) -> WireCompletionResponse {
        try await call(.recordCompletion, WireRecordCompletionRequest(habitId: habitID, date: date, asOf: asOf))
    }

    /// RemoveCompletion (idempotent): the new day record and streak.
    public func removeCompletion(
        habitID: Int64,
        date: CivilDate? = nil,
        asOf: CivilDate? = nil
    ) async throws(StreakClientError) -> WireCompletionResponse {
        try await call(.removeCompletion, WireRemoveCompletionRequest(habitId: habitID, date: date, asOf: asOf))
    }

    /// BatchCompletions: records, then removes, all or nothing.
    public func batchCompletions(
        _ request: WireBatchCompletionsRequest
    ) async throws(StreakClientError) -> WireBatchCompletionsResponse {
        try await call(.batchCompletions, request)
    }

    /// GetDay: the day detail (the popover), over `habitIDs` alone when not empty.
    public func day(_ date: CivilDate, habitIDs: [Int64] = []) async throws(StreakClientError) -> WireDayDetail {
        let response: WireGetDayResponse = try await call(.getDay, WireGetDayRequest(date: date, habitIds: habitIDs))
        return response.day ?? WireDayDetail()
    }

    /// GetHeatmap: weeks, month labels and legend. With `request.packed` the answer travels in the
    /// compact encoding (about 500 bytes for a year instead of about 9 KB) and is unpacked here into
    /// the same weeks (the month labels only with `packedMonthLabels`; accessibility labels are made
    /// from the counts when `accessibilityLabels` is set).
    public func heatmap(_ request: WireGetHeatmapRequest = .init()) async throws(StreakClientError) -> WireHeatmap {
        let response: WireGetHeatmapResponse = try await call(.getHeatmap, request)
        if let packed = response.packed {
            return try Self.unpack(packed, accessibilityLabels: request.accessibilityLabels)
        }
        return response.heatmap ?? WireHeatmap()
    }

    /// GetHeatmap in the compact encoding, as it came (`request.packed` is set for you): for a
    /// client that reads the levels and percentages itself (docs/PROTOCOL.md section 8).
    public func packedHeatmap(
        _ request: WireGetHeatmapRequest = .init()
    ) async throws(StreakClientError)
        -> WirePackedHeatmap
    {
        var request = request
        request.packed = true
        let response: WireGetHeatmapResponse = try await call(.getHeatmap, request)
        guard let packed = response.packed else {
            throw StreakClientError(.internal, "GetHeatmap: the answer has no packed heatmap")
        }
        return packed
    }

    /// GetStreak: the current and longest streak as of a day (default: today), over `habitIDs`
    /// alone when not empty.
    public func streak(
        asOf: CivilDate? = nil,
        habitIDs: [Int64] = []
    ) async throws(StreakClientError) -> WireStreakSummary {
        let response: WireGetStreakResponse = try await call(
            .getStreak,
            WireGetStreakRequest(asOf: asOf, habitIds: habitIDs)
        )
        return response.streak ?? WireStreakSummary()
    }

    /// GetWeekdayChart: counts per weekday per habit, in the locale's week order.
    public func weekdayChart(
        _ request: WireGetWeekdayChartRequest = .init()
    ) async throws(StreakClientError) -> WireWeekdayChart {
        let response: WireGetWeekdayChartResponse = try await call(.getWeekdayChart, request)
        return response.chart ?? WireWeekdayChart()
    }

    /// GetMonthPage: a 42-day month page with the contributing days highlighted.
    public func monthPage(_ request: WireGetMonthPageRequest = .init()) async throws(StreakClientError) -> WireMonthPage
    {
        let response: WireGetMonthPageResponse = try await call(.getMonthPage, request)
        return response.page ?? WireMonthPage()
    }

    /// GetSettings.
    public func settings() async throws(StreakClientError) -> WireSettings {
        let response: WireGetSettingsResponse = try await call(.getSettings, WireGetSettingsRequest())
        return response.settings ?? WireSettings()
    }

    /// UpdateSettings: only the fields that are set change.
    public func updateSettings(_ request: WireUpdateSettingsRequest) async throws(StreakClientError) -> WireSettings {
        let response: WireUpdateSettingsResponse = try await call(.updateSettings, request)
        return response.settings ?? WireSettings()
    }

    /// BuildMonthLabels (stateless).
    public func buildMonthLabels(
        _ request: WireBuildMonthLabelsRequest
    ) async throws(StreakClientError) -> [WireMonthLabel] {
        let response: WireBuildMonthLabelsResponse = try await call(.buildMonthLabels, request)
        return response.labels
    }

    /// BuildHeatmap (stateless): heatmap and streak from the habits and completions sent (as
    /// `completions`, or compactly as `completionDays`: `WireHabitDays(habitId:days:)`). The answer
    /// is as it came: with `request.packed`, `packed` is set instead of `heatmap`
    /// (`WirePackedHeatmap.unpacked()` gives the weeks).
    public func buildHeatmap(
        _ request: WireBuildHeatmapRequest
    ) async throws(StreakClientError) -> WireBuildHeatmapResponse {
        try await call(.buildHeatmap, request)
    }

    /// A packed heatmap as weeks; one that does not decode is a bad answer (INTERNAL).
    static func unpack(
        _ packed: WirePackedHeatmap,
        accessibilityLabels: Bool
    ) throws(StreakClientError)
        -> WireHeatmap
    {
        do {
            return try packed.unpacked(accessibilityLabels: accessibilityLabels)
        } catch {
            throw StreakClientError(.internal, "GetHeatmap: bad packed heatmap: \(error.message)")
        }
    }

    /// BuildMonthPage (stateless).
    public func buildMonthPage(_ request: WireBuildMonthPageRequest) async throws(StreakClientError) -> WireMonthPage {
        let response: WireBuildMonthPageResponse = try await call(.buildMonthPage, request)
        return response.page ?? WireMonthPage()
    }

    /// Ping (no token needed): echoes the payload; `serving` is false while the server shuts down.
    public func ping(payload: [UInt8] = []) async throws(StreakClientError) -> WirePingResponse {
        try await call(.ping, WirePingRequest(payload: payload))
    }

    /// GetServerInfo: version, uptime and counters.
    public func serverInfo() async throws(StreakClientError) -> WireGetServerInfoResponse {
        try await call(.getServerInfo, WireGetServerInfoRequest())
    }
}
