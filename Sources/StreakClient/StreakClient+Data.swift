public import StreakWire

extension StreakClient {
    /// DeleteHabit: the habit and all its history go away, durably.
    /// - Returns: the habit as it was, with how many completions and skips went with it.
    public func deleteHabit(id: Int64) async throws(StreakClientError) -> WireDeleteHabitResponse {
        try await call(.deleteHabit, WireDeleteHabitRequest(habitId: id))
    }

    /// UnarchiveHabit: an archived habit counts again from its archive day on.
    public func unarchiveHabit(id: Int64) async throws(StreakClientError) -> WireHabit {
        let response: WireUnarchiveHabitResponse = try await call(
            .unarchiveHabit,
            WireUnarchiveHabitRequest(habitId: id)
        )
        return response.habit ?? WireHabit()
    }

    /// ImportData: a batch of habits with their history, rest periods and settings, applied
    /// idempotently; records that cannot be applied come back in `errors`.
    /// - Parameter deadline: the call's deadline (a large batch takes a while); nil uses the default.
    public func importData(
        _ request: WireImportDataRequest,
        deadline: Duration? = nil
    ) async throws(StreakClientError) -> WireImportDataResponse {
        try await call(.importData, request, deadline: deadline)
    }

    /// ExportData: the user's data as a stream of pages (the first with the settings, habits and
    /// rest periods; each with up to `pageSize` completions and skips). No deadline unless given:
    /// a long history streams as fast as it is read.
    public func exportData(
        pageSize: Int32 = 0,
        deadline: Duration? = nil
    ) async throws(StreakClientError) -> StreakResponseStream<WireExportDataPage> {
        try await connection().stream(.exportData, WireExportDataRequest(pageSize: pageSize), deadline: deadline)
    }
}
