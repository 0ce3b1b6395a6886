/// How many habits a user may have, archived ones included (docs/PROTOCOL.md section 2.2).
///
/// The number keeps every answer that lists all of a user's habits inside the 4 MiB frame:
/// ListHabits, GetDay's `open_habits` and the first ExportData page. A habit on the wire is at most
/// about 830 bytes (a 200-scalar name is up to 800 UTF-8 bytes, plus its id, two dates and the
/// message's own tags), so 1,000 of them take about 0.8 MiB, leaving the rest of the frame to their
/// schedules, the rest periods, the settings and a first export page of 65,536 records (about
/// 1.4 MiB). Five times as many would not fit at all.
public enum HabitLimit {
    /// The most habits one user may have.
    public static let perUser = 1000

    /// Why one more habit is refused, for a user who has `count` already.
    public static func reached(count: Int) -> String {
        "a user may have at most \(perUser) habits, archived ones included (this one has \(count)): "
            + "delete one (DeleteHabit) to make room"
    }

    /// Why `adding` more habits at once (a user's habits of a bulk load) are refused, for a user who
    /// has `count` already.
    public static func reached(count: Int, adding: Int) -> String {
        "a user may have at most \(perUser) habits, archived ones included "
            + "(this one has \(count) and would get \(adding) more)"
    }
}
