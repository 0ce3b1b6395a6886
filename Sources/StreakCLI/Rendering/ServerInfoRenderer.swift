import StreakCore
import StreakPOSIX
public import StreakWire

/// Draws what GetServerInfo says about a server, one `name: value` per line, then the storage
/// upkeep: `working`, or each job that is failing with since when and why.
public enum ServerInfoRenderer {
    /// The server's state as text, each line ending in a newline.
    public static func render(_ info: WireGetServerInfoResponse) -> String {
        let budget = info.userMemoryBudgetBytes == 0 ? "no budget" : "of \(bytes(info.userMemoryBudgetBytes))"
        var lines = [
            "version:       \(info.version) (protocol \(info.protocolVersion))",
            "uptime:        \(duration(seconds: info.uptimeSeconds))",
            "storage:       \(info.storage)",
            "connections:   \(info.connectionsCurrent) open, \(info.connectionsTotal) served",
            "requests:      \(info.requestsTotal) (\(Plural.of(Int(clamping: info.errorsTotal), "error")))",
            "users held:    \(info.usersHeld), \(bytes(info.userMemoryBytes)) \(budget)"
                + " (\(info.usersEvicted) evicted, \(info.usersDropped) dropped)",
            "other servers: \(Plural.of(Int(clamping: info.changeNoticesTotal), "change")) taken",
        ]
        if info.storageUpkeepFailing.isEmpty {
            lines.append("upkeep:        working")
        } else {
            lines.append("upkeep:        \(Plural.of(info.storageUpkeepFailing.count, "job")) failing")
            lines += info.storageUpkeepFailing.map { "  \(failure($0))" }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `pruning the change log, since 2026-11-28 08:33:09 UTC: PostgreSQL query failed (P0001)`.
    static func failure(_ failure: WireStorageUpkeepFailure) -> String {
        let name = failure.description.isEmpty ? failure.job : failure.description
        let since = failure.failingSinceUnixSeconds == 0 ? "" : ", since \(utc(failure.failingSinceUnixSeconds))"
        let why = failure.detail.isEmpty ? failure.error : failure.detail
        return "\(name)\(since)" + (why.isEmpty ? "" : ": \(why)")
    }

    /// `3 d 4 h`, `2 h 5 min`, `4 min 10 s`, `12 s`: the two largest units.
    static func duration(seconds: Int64) -> String {
        let s = max(0, seconds)
        let (days, hours, minutes) = (s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        if minutes > 0 { return "\(minutes) min \(s % 60) s" }
        return "\(s) s"
    }

    /// `512 B`, `3.4 KiB`, `1.6 MiB`, `256 MiB`: at most one decimal past bytes.
    static func bytes(_ count: UInt64) -> String {
        let (value, unit) = binaryUnit(count)
        guard let unit else { return "\(count) B" }
        let text = decimalText(value, places: 1)
        return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " " + unit
    }

    /// `2026-11-28 08:33:09 UTC` for seconds since 1970.
    static func utc(_ seconds: Int64) -> String {
        let (date, time) = dateAndTime(seconds)
        return "\(date) \(time) UTC"
    }

    /// `2026-11-28T08:33:09Z`, the form JSON gives it in.
    static func iso8601(_ seconds: Int64) -> String {
        let (date, time) = dateAndTime(seconds)
        return "\(date)T\(time)Z"
    }

    /// The UTC date (`2026-11-28`) and time of day (`08:33:09`) of seconds since 1970.
    private static func dateAndTime(_ seconds: Int64) -> (date: String, time: String) {
        var day = seconds / 86_400
        if seconds % 86_400 < 0 { day -= 1 }
        let time = Int(seconds - day * 86_400)
        let date = (try? CivilDate(dayNumber: Int(day))).map { "\($0)" } ?? "day \(day)"
        return (date, "\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60))")
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension WireJSON {
    /// `{"version", "protocol_version", "uptime_seconds", "storage", "connections_current",
    /// "connections_total", "requests_total", "errors_total", "users_held", "users_evicted",
    /// "user_memory_bytes", "user_memory_budget_bytes", "users_dropped", "change_notices_total",
    /// "storage_upkeep_failing": [{"job", "description", "failing_since", "error", "detail",
    /// "engine_code"}]}`.
    public static func serverInfo(_ info: WireGetServerInfoResponse) -> JSONValue {
        .object([
            ("version", .string(info.version)), ("protocol_version", .int(Int64(info.protocolVersion))),
            ("uptime_seconds", .int(info.uptimeSeconds)), ("storage", .string(info.storage)),
            ("connections_current", count(info.connectionsCurrent)),
            ("connections_total", count(info.connectionsTotal)),
            ("requests_total", count(info.requestsTotal)), ("errors_total", count(info.errorsTotal)),
            ("users_held", count(info.usersHeld)), ("users_evicted", count(info.usersEvicted)),
            ("user_memory_bytes", count(info.userMemoryBytes)),
            ("user_memory_budget_bytes", count(info.userMemoryBudgetBytes)),
            ("users_dropped", count(info.usersDropped)),
            ("change_notices_total", count(info.changeNoticesTotal)),
            ("storage_upkeep_failing", .array(info.storageUpkeepFailing.map(upkeepFailure))),
        ])
    }

    static func upkeepFailure(_ failure: WireStorageUpkeepFailure) -> JSONValue {
        .object([
            ("job", .string(failure.job)), ("description", .string(failure.description)),
            (
                "failing_since",
                failure.failingSinceUnixSeconds == 0
                    ? .null : .string(ServerInfoRenderer.iso8601(failure.failingSinceUnixSeconds))
            ),
            ("error", .string(failure.error)), ("detail", .string(failure.detail)),
            ("engine_code", failure.engineCode.isEmpty ? .null : .string(failure.engineCode)),
        ])
    }

    /// A counter as a JSON integer (counters past Int64 are not reached).
    private static func count(_ value: UInt64) -> JSONValue { .int(Int64(clamping: value)) }
}
