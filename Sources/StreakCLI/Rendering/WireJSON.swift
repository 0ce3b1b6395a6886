public import StreakCore
public import StreakWire

/// The CLI's `--json` shapes (documented in docs/CLI.md): snake_case keys named after the proto
/// fields, dates as `"YYYY-MM-DD"` or null, weekdays as lower-case English names.
public enum WireJSON {
    /// A date or null.
    public static func date(_ date: CivilDate?) -> JSONValue {
        date.map { .string($0.description) } ?? .null
    }

    /// A weekday name or null.
    public static func weekday(_ weekday: Weekday?) -> JSONValue {
        weekday.map { .string(WeekdayNames.name($0)) } ?? .null
    }

    /// `{"id", "name", "created_on", "archived_on", "schedule": [{"effective_from", "weekdays": [name]}]}`.
    public static func habit(_ habit: WireHabit) -> JSONValue {
        .object([
            ("id", .int(habit.id)), ("name", .string(habit.name)),
            ("created_on", date(habit.createdOn)), ("archived_on", date(habit.archivedOn)),
            ("schedule", .array(habit.schedule.map(scheduleEntry))),
        ])
    }

    /// `{"effective_from", "weekdays": ["monday", ...]}`.
    public static func scheduleEntry(_ entry: WireScheduleEntry) -> JSONValue {
        .object([
            ("effective_from", date(entry.effectiveFrom)),
            ("weekdays", .array(entry.weekdays.map { weekday($0) })),
        ])
    }

    /// `{"id", "from", "to", "note"}`.
    public static func restPeriod(_ period: WireRestPeriod?) -> JSONValue {
        guard let period else { return .null }
        return .object([
            ("id", .int(period.id)), ("from", date(period.from)), ("to", date(period.to)),
            ("note", .string(period.note)),
        ])
    }

    /// `{"as_of", "current", "current_start", "longest", "longest_start", "longest_end", "today_pending"}`.
    public static func streak(_ streak: WireStreakSummary?) -> JSONValue {
        guard let streak else { return .null }
        return .object([
            ("as_of", date(streak.asOf)), ("current", .int(Int64(streak.current))),
            ("current_start", date(streak.currentStart)), ("longest", .int(Int64(streak.longest))),
            ("longest_start", date(streak.longestStart)), ("longest_end", date(streak.longestEnd)),
            ("today_pending", .bool(streak.todayPending)),
        ])
    }

    /// `{"date", "completed_habit_ids", "completed", "active", "percent", "level", "contributing", "due",
    /// "rest", "skipped_habit_ids"}`.
    public static func dayRecord(_ day: WireDayRecord?) -> JSONValue {
        guard let day else { return .null }
        return .object([
            ("date", date(day.date)), ("completed_habit_ids", .array(day.completedHabitIds.map { .int($0) })),
            ("completed", .int(Int64(day.completed))), ("active", .int(Int64(day.active))),
            ("percent", .int(Int64(day.percent))), ("level", .int(Int64(day.level))),
            ("contributing", .bool(day.contributing)), ("due", .int(Int64(day.due))), ("rest", .bool(day.rest)),
            ("skipped_habit_ids", .array(day.skippedHabitIds.map { .int($0) })),
        ])
    }

    /// `{"date", "completed_habits": [habit], "completed", "active", "percent", "level", "contributing",
    /// "accessibility_label", "due", "rest", "skipped_habits": [habit], "open_habits": [habit]}`.
    public static func dayDetail(_ day: WireDayDetail) -> JSONValue {
        .object([
            ("date", date(day.date)), ("completed_habits", .array(day.completedHabits.map(habit))),
            ("completed", .int(Int64(day.completed))), ("active", .int(Int64(day.active))),
            ("percent", .int(Int64(day.percent))), ("level", .int(Int64(day.level))),
            ("contributing", .bool(day.contributing)), ("accessibility_label", .string(day.accessibilityLabel)),
            ("due", .int(Int64(day.due))), ("rest", .bool(day.rest)),
            ("skipped_habits", .array(day.skippedHabits.map(habit))),
            ("open_habits", .array(day.openHabits.map(habit))),
        ])
    }

    /// `{"from", "to", "week_start", "weeks": [{"start", "cells": [null | cell]}], "month_labels", "legend"}`.
    public static func heatmap(_ heatmap: WireHeatmap) -> JSONValue {
        let weeks: [JSONValue] = heatmap.weeks.map { week in
            .object([("start", date(week.start)), ("cells", .array(week.cells.map(cell)))])
        }
        let labels: [JSONValue] = heatmap.monthLabels.map {
            .object([("label", .string($0.label)), ("week_index", .int(Int64($0.weekIndex)))])
        }
        let legend: [JSONValue] = heatmap.legend.map {
            .object([
                ("level", .int(Int64($0.level))), ("min_percent", .int(Int64($0.minPercent))),
                ("max_percent", .int(Int64($0.maxPercent))), ("description", .string($0.description)),
            ])
        }
        return .object([
            ("from", date(heatmap.from)), ("to", date(heatmap.to)), ("week_start", weekday(heatmap.weekStart)),
            ("weeks", .array(weeks)), ("month_labels", .array(labels)), ("legend", .array(legend)),
        ])
    }

    /// null for an absent cell, else `{"date", "completed", "active", "level", "percent", "due", "rest"}`,
    /// and `"accessibility_label"` last when the cell has one (`heatmap --labels`).
    public static func cell(_ cell: WireHeatmapCell) -> JSONValue {
        guard cell.present else { return .null }
        var fields: [(String, JSONValue)] = [
            ("date", date(cell.date)), ("completed", .int(Int64(cell.completed))),
            ("active", .int(Int64(cell.active))), ("level", .int(Int64(cell.level))),
            ("percent", .int(Int64(cell.percent))), ("due", .int(Int64(cell.due))), ("rest", .bool(cell.rest)),
        ]
        if !cell.accessibilityLabel.isEmpty { fields.append(("accessibility_label", .string(cell.accessibilityLabel))) }
        return .object(fields)
    }

    /// `{"from", "to", "series": [{"habit_id", "name", "total", "counts": [{"weekday", "short_name", "count"}]}]}`.
    public static func weekdayChart(_ chart: WireWeekdayChart) -> JSONValue {
        let series: [JSONValue] = chart.series.map { entry in
            .object([
                ("habit_id", .int(entry.habitId)), ("name", .string(entry.name)), ("total", .bool(entry.total)),
                (
                    "counts",
                    .array(
                        entry.counts.map {
                            .object([
                                ("weekday", weekday($0.weekday)), ("short_name", .string($0.shortName)),
                                ("count", .int(Int64($0.count))),
                            ])
                        }
                    )
                ),
            ])
        }
        return .object([("from", date(chart.from)), ("to", date(chart.to)), ("series", .array(series))])
    }

    /// `{"year", "month", "title", "week_start", "weekday_symbols", "days": [...], "previous": "YYYY-MM",
    /// "next": "YYYY-MM"}`.
    public static func monthPage(_ page: WireMonthPage) -> JSONValue {
        let days: [JSONValue] = page.days.map {
            .object([
                ("date", date($0.date)), ("day", .int(Int64($0.day))), ("in_month", .bool($0.inMonth)),
                ("today", .bool($0.today)), ("selected", .bool($0.selected)),
                ("highlighted", .bool($0.highlighted)), ("level", .int(Int64($0.level))),
                ("rest", .bool($0.rest)),
            ])
        }
        return .object([
            ("year", .int(Int64(page.year))), ("month", .int(Int64(page.month))), ("title", .string(page.title)),
            ("week_start", weekday(page.weekStart)),
            ("weekday_symbols", .array(page.weekdaySymbols.map { .string($0) })), ("days", .array(days)),
            ("previous", .string(yearMonth(page.previousYear, page.previousMonth))),
            ("next", .string(yearMonth(page.nextYear, page.nextMonth))),
        ])
    }

    /// `{"time_zone", "locale", "week_start", "min_percent": int or null, "day_start": "HH:MM"}`.
    public static func settings(_ settings: WireSettings) -> JSONValue {
        .object([
            ("time_zone", .string(settings.timeZone)), ("locale", .string(settings.locale)),
            ("week_start", weekday(settings.weekStart)),
            ("min_percent", settings.minPercent == 0 ? .null : .int(Int64(settings.minPercent))),
            ("day_start", .string(clock(minutes: Int(settings.dayStartMinutes)))),
        ])
    }

    /// `HH:MM` for minutes after midnight.
    public static func clock(minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    static func yearMonth(_ year: Int32, _ month: Int32) -> String {
        let y = String(year)
        let m = String(month)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (m.count < 2 ? "0" : "") + m
    }
}

extension WireJSON {
    /// `{"date", "habits": [{"habit", "state", "streak"}], "completed", "due", "active", "percent",
    /// "level", "contributing", "rest", "streak"}`.
    public static func today(_ view: TodayView) -> JSONValue {
        .object([
            ("date", .string(view.date.description)),
            (
                "habits",
                .array(
                    view.lines.map { line in
                        .object([
                            ("habit", habit(line.habit)), ("state", .string(line.state.rawValue)),
                            ("streak", streak(line.streak)),
                        ])
                    }
                )
            ),
            ("completed", .int(Int64(view.day.completed))), ("due", .int(Int64(view.day.due))),
            ("active", .int(Int64(view.day.active))), ("percent", .int(Int64(view.day.percent))),
            ("level", .int(Int64(view.day.level))), ("contributing", .bool(view.day.contributing)),
            ("rest", .bool(view.day.rest)), ("streak", streak(view.streak)),
        ])
    }
}
