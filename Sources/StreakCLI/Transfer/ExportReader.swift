import StreakCore

/// Turns a parsed export into an `ImportArchive`, checking every member.
struct ExportReader {
    let file: String

    func fail(_ value: LineJSON?, _ field: String, _ message: String) -> ImportError {
        ImportError(file: file, line: value?.line, field: field, message: message)
    }

    mutating func archive(_ root: LineJSON) throws(ImportError) -> ImportArchive {
        guard case .object = root else { throw fail(root, "(document)", "an export is a JSON object") }
        guard case .string(let format, _)? = root["format"], format == ExportFormat.name else {
            throw fail(
                root["format"] ?? root,
                "format",
                "not a Streakd export (\"format\" must be \"\(ExportFormat.name)\")"
            )
        }
        guard case .number(let text, _)? = root["version"], let version = Int(text), version >= 1 else {
            throw fail(root["version"] ?? root, "version", "a positive whole number is needed")
        }
        guard version <= ExportFormat.version else {
            throw fail(
                root["version"],
                "version",
                "written in format version \(version) by a newer streak; this one reads up to version "
                    + "\(ExportFormat.version): upgrade streak to import it"
            )
        }
        var archive = ImportArchive()
        if let settings = root["settings"], !settings.isNull {
            archive.settings = try self.settings(settings)
        }
        guard case .array(let habits, _)? = root["habits"] else {
            throw fail(root["habits"] ?? root, "habits", "an array of habits is needed")
        }
        for (index, habit) in habits.enumerated() {
            archive.habits.append(try self.habit(habit, field: "habits[\(index)]"))
        }
        if let periods = root["rest_periods"], !periods.isNull {
            guard case .array(let elements, _) = periods else {
                throw fail(periods, "rest_periods", "an array is needed")
            }
            for (index, element) in elements.enumerated() {
                let field = "rest_periods[\(index)]"
                let from = try date(element["from"], field: field + ".from")
                let to = try date(element["to"], field: field + ".to")
                guard from <= to else { throw fail(element, field, "ends (\(to)) before it starts (\(from))") }
                let note = try optionalString(element["note"], field: field + ".note") ?? ""
                guard TextLength.of(note) <= TextLength.maximum else {
                    throw fail(element["note"], field + ".note", "at most 200 characters")
                }
                archive.restPeriods.append(.init(from: from, to: to, note: note))
            }
        }
        return archive
    }

    func habit(_ value: LineJSON, field: String) throws(ImportError) -> HabitHistory {
        guard case .object = value else { throw fail(value, field, "a habit is an object") }
        guard let name = try optionalString(value["name"], field: field + ".name") else {
            throw fail(value, field + ".name", "a habit needs a name")
        }
        if let problem = Self.nameProblem(name) {
            throw fail(value["name"], field + ".name", problem)
        }
        var habit = HabitHistory(name: name)
        habit.createdOn = try optionalDate(value["created_on"], field: field + ".created_on")
        habit.archivedOn = try optionalDate(value["archived_on"], field: field + ".archived_on")
        if let created = habit.createdOn, let archived = habit.archivedOn, archived < created {
            throw fail(value["archived_on"], field + ".archived_on", "before created_on \(created)")
        }
        if let schedule = value["schedule"], !schedule.isNull {
            guard case .array(let entries, _) = schedule else {
                throw fail(schedule, field + ".schedule", "an array is needed")
            }
            for (index, entry) in entries.enumerated() {
                let path = field + ".schedule[\(index)]"
                let from = try date(entry["effective_from"], field: path + ".effective_from")
                guard case .array(let names, _)? = entry["weekdays"] else {
                    throw fail(entry["weekdays"] ?? entry, path + ".weekdays", "1 to 7 weekdays are needed")
                }
                var weekdays: [Weekday] = []
                for (position, name) in names.enumerated() {
                    guard case .string(let text, _) = name, let weekday = WeekdayNames.weekday(named: text) else {
                        throw fail(name, path + ".weekdays[\(position)]", "not a weekday (monday ... sunday)")
                    }
                    weekdays.append(weekday)
                }
                do {
                    habit.schedule.append(.init(effectiveFrom: from, weekdays: try WeekdaySet(weekdays)))
                } catch {
                    throw fail(entry["weekdays"], path + ".weekdays", "1 to 7 weekdays are needed")
                }
            }
        }
        habit.completions = try days(value["completions"], field: field + ".completions")
        habit.skips = try days(value["skips"], field: field + ".skips")
        return habit
    }

    /// Why the server would refuse `name` (`HabitName`), naming a control character it holds.
    static func nameProblem(_ name: String) -> String? {
        guard let problem = HabitName.problem(name) else { return nil }
        guard let control = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) else {
            return problem
        }
        let hex = String(control.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return "\(problem); it has \(code): replace it with a space"
    }

    func settings(_ value: LineJSON) throws(ImportError) -> ImportArchive.Settings {
        guard case .object = value else { throw fail(value, "settings", "settings are an object") }
        var settings = ImportArchive.Settings()
        settings.timeZone = try optionalString(value["time_zone"], field: "settings.time_zone")
        settings.locale = try optionalString(value["locale"], field: "settings.locale")
        if let text = try optionalString(value["week_start"], field: "settings.week_start") {
            guard let weekday = WeekdayNames.weekday(named: text) else {
                throw fail(value["week_start"], "settings.week_start", "not a weekday (monday ... sunday)")
            }
            settings.weekStart = weekday
        }
        if let percent = value["min_percent"], !percent.isNull {
            let range = StreakThreshold.percentRange
            guard case .number(let text, _) = percent, let number = Int(text), range.contains(number) else {
                throw fail(
                    percent,
                    "settings.min_percent",
                    "a whole number \(range.lowerBound)...\(range.upperBound), or null"
                )
            }
            settings.minPercent = number
        }
        if let text = try optionalString(value["day_start"], field: "settings.day_start") {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<60).contains(minutes),
                (0...720).contains(hours * 60 + minutes)
            else { throw fail(value["day_start"], "settings.day_start", "a time HH:MM between 00:00 and 12:00") }
            settings.dayStartMinutes = hours * 60 + minutes
        }
        return settings
    }

    func days(_ value: LineJSON?, field: String) throws(ImportError) -> [CivilDate] {
        guard let value, !value.isNull else { return [] }
        guard case .array(let elements, _) = value else { throw fail(value, field, "an array of dates is needed") }
        var result: [CivilDate] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try date(element, field: field + "[\(index)]"))
        }
        return Array(Set(result)).sorted()
    }

    func date(_ value: LineJSON?, field: String) throws(ImportError) -> CivilDate {
        guard let value, case .string(let text, _) = value else {
            throw fail(value, field, "a date YYYY-MM-DD is needed")
        }
        do {
            return try CivilDate(parsing: text)
        } catch {
            throw fail(value, field, error.message)
        }
    }

    func optionalDate(_ value: LineJSON?, field: String) throws(ImportError) -> CivilDate? {
        guard let value, !value.isNull else { return nil }
        return try date(value, field: field)
    }

    func optionalString(_ value: LineJSON?, field: String) throws(ImportError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard case .string(let text, _) = value else { throw fail(value, field, "a string is needed") }
        return text
    }
}

extension LineJSON {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
