public import StreakCore
public import StreakWire

/// The daily loop at a glance: every habit active on a day, whether it is done, skipped, still
/// open or not expected that day, with its own current streak; then the day and the overall streak.
public struct TodayView: Sendable {
    /// Where a habit stands on the day.
    public enum State: String, Sendable {
        /// Completed.
        case done
        /// Excused for the day.
        case skipped
        /// Expected and not done yet.
        case open
        /// Not expected: not on its schedule that day, or inside a rest period.
        case notDue = "not_due"
    }

    /// One habit's line.
    public struct Line: Sendable {
        /// The habit.
        public var habit: WireHabit
        /// Where it stands.
        public var state: State
        /// Its own streak as of the day.
        public var streak: WireStreakSummary

        /// Creates a line.
        public init(habit: WireHabit, state: State, streak: WireStreakSummary) {
            self.habit = habit
            self.state = state
            self.streak = streak
        }
    }

    /// The day shown.
    public var date: CivilDate
    /// The habits active that day, by id.
    public var lines: [Line]
    /// The day's detail (counts, percentage, rest).
    public var day: WireDayDetail
    /// The overall streak as of the day.
    public var streak: WireStreakSummary
    /// Every habit of the account, active that day or not (what to say when none is active).
    public var allHabits: [WireHabit]

    /// Creates a view.
    public init(
        date: CivilDate,
        lines: [Line],
        day: WireDayDetail,
        streak: WireStreakSummary,
        allHabits: [WireHabit] = []
    ) {
        self.date = date
        self.lines = lines
        self.day = day
        self.streak = streak
        self.allHabits = allHabits
    }

    /// What to say when no habit is active on the day: there are none yet, none had started by
    /// then, or all were archived before it.
    public var noHabitsNote: String {
        guard !allHabits.isEmpty else { return "no habits yet; add one with: streak habit add NAME" }
        let starts = allHabits.compactMap(\.createdOn)
        if let first = starts.min(), first > date {
            return "none of your habits had started by \(date) (the first starts on \(first))"
        }
        return "none of your habits is active on \(date) (they were archived before it or start after it)"
    }

    /// The habits active on `date` (created on or before it, not yet archived), by id.
    public static func activeHabits(_ habits: [WireHabit], on date: CivilDate) -> [WireHabit] {
        habits.filter { habit in
            (habit.createdOn.map { $0 <= date } ?? true) && (habit.archivedOn.map { date < $0 } ?? true)
        }.sorted { $0.id < $1.id }
    }

    /// Where `habit` stands according to the day's detail.
    public static func state(of habit: WireHabit, in day: WireDayDetail) -> State {
        if day.completedHabits.contains(where: { $0.id == habit.id }) { return .done }
        if day.skippedHabits.contains(where: { $0.id == habit.id }) { return .skipped }
        if day.openHabits.contains(where: { $0.id == habit.id }) { return .open }
        return .notDue
    }
}

/// Draws a `TodayView`:
///
///     Sunday 2025-06-15
///       ✓ Meditate   done      12 days
///       ○ Read       open       0 days
///     2 of 4 habits (50%)  streak 47 days
public enum TodayRenderer {
    /// The view as text, each line ending in a newline. With a `width`, names too long for the
    /// habit lines to fit are cut with `…` (to no fewer than 8 columns).
    public static func render(_ view: TodayView, style: TerminalStyle, width: Int? = nil) -> String {
        let weekday = WeekdayNames.name(view.date.weekday).capitalized
        var lines = [style.bold("\(weekday) \(view.date)")]
        if view.lines.isEmpty {
            lines.append("  " + view.noHabitsNote)
        }
        let streakWidth = view.lines.map { StreakRenderer.days($0.streak.current).count }.max() ?? 0
        // "  ✓ " NAME "  " word of 7 "  " streak
        var nameWidth = view.lines.map { DisplayWidth.of($0.habit.name) }.max() ?? 0
        if let width { nameWidth = min(nameWidth, max(8, width - 4 - 2 - 7 - 2 - streakWidth)) }
        for line in view.lines {
            let (mark, word) = marks(line.state, style: style)
            let streak = DisplayWidth.padLeft(StreakRenderer.days(line.streak.current), to: streakWidth)
            let name = DisplayWidth.truncated(line.habit.name, to: nameWidth)
            lines.append(
                ("  \(mark) " + DisplayWidth.padRight(name, to: nameWidth) + "  "
                    + DisplayWidth.padRight(word, to: 7) + "  " + streak).trimmingTrailingSpaces()
            )
        }
        let summary = view.day.rest ? "rest day" : DayRenderer.summary(view.day)
        var footer = summary + "  streak " + style.bold(StreakRenderer.days(view.streak.current))
        if view.streak.longest > view.streak.current {
            footer += style.dim(" (longest \(StreakRenderer.days(view.streak.longest)))")
        }
        lines.append(footer)
        return lines.map { $0 + "\n" }.joined()
    }

    /// The mark and the word of a state: `✓ done`, `- skipped`, `○ open`, `· not due`.
    static func marks(_ state: TodayView.State, style: TerminalStyle) -> (String, String) {
        switch state {
        case .done: (style.foreground("✓", 40), "done")
        case .skipped: (style.foreground("-", 67), "skipped")
        case .open: (style.foreground("○", 214), "open")
        case .notDue: (style.dim("·"), "not due")
        }
    }
}
