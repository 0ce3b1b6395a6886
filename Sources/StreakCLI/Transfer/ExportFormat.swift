import StreakCore

/// Streakd's export file: versioned JSON, documented in docs/EXPORT.md. The same data always gives
/// the same bytes (apart from `exported_at`): habits in the order they were created, days ascending.
public enum ExportFormat {
    /// The `format` member of every export.
    public static let name = "streakd-export"
    /// The version this build writes and the newest it reads.
    public static let version = 1

    /// The file's text for `archive`, ending in a newline.
    public static func encode(_ archive: ImportArchive, exportedAt: String) -> String {
        var members: [(String, JSONValue)] = [
            ("format", .string(name)), ("version", .int(Int64(version))), ("exported_at", .string(exportedAt)),
        ]
        if let settings = archive.settings { members.append(("settings", encode(settings))) }
        members.append(("habits", .array(archive.habits.map(encode))))
        members.append(
            (
                "rest_periods",
                .array(
                    archive.restPeriods.map { period in
                        .object([
                            ("from", .string(period.from.description)), ("to", .string(period.to.description)),
                            ("note", .string(period.note)),
                        ])
                    }
                )
            )
        )
        return JSONValue.object(members).serialized(pretty: true) + "\n"
    }

    static func encode(_ habit: HabitHistory) -> JSONValue {
        .object([
            ("name", .string(habit.name)),
            ("created_on", habit.createdOn.map { .string($0.description) } ?? .null),
            ("archived_on", habit.archivedOn.map { .string($0.description) } ?? .null),
            (
                "schedule",
                .array(
                    habit.schedule.map { entry in
                        .object([
                            ("effective_from", .string(entry.effectiveFrom.description)),
                            ("weekdays", .array(entry.weekdays.weekdays.map { .string(WeekdayNames.name($0)) })),
                        ])
                    }
                )
            ),
            ("completions", .array(habit.completions.map { .string($0.description) })),
            ("skips", .array(habit.skips.map { .string($0.description) })),
        ])
    }

    static func encode(_ settings: ImportArchive.Settings) -> JSONValue {
        .object([
            ("time_zone", settings.timeZone.map(JSONValue.string) ?? .null),
            ("locale", settings.locale.map(JSONValue.string) ?? .null),
            ("week_start", settings.weekStart.map { .string(WeekdayNames.name($0)) } ?? .null),
            ("min_percent", settings.minPercent.map { .int(Int64($0)) } ?? .null),
            ("day_start", settings.dayStartMinutes.map { .string(WireJSON.clock(minutes: $0)) } ?? .null),
        ])
    }

    /// Reads an export file. Every problem stops the import before anything is sent: the error
    /// names the file, the line and the member (`habits[2].completions[14]`).
    public static func decode(_ bytes: [UInt8], file: String) throws(ImportError) -> ImportArchive {
        let root: LineJSON
        do {
            root = try LineJSON.parse(bytes)
        } catch {
            throw ImportError(file: file, line: error.line, message: "not valid JSON: \(error.message)")
        }
        var reader = ExportReader(file: file)
        return try reader.archive(root)
    }
}
