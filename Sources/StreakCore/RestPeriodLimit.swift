/// How many rest periods a user may have (docs/PROTOCOL.md section 2.2).
///
/// The number keeps every answer that lists all of a user's rest periods inside the 4 MiB frame:
/// ListRestPeriods and the first ExportData page. A rest period on the wire is at most 834 bytes
/// (a 200-scalar note is up to 800 UTF-8 bytes, plus its id, two dates and the message's own
/// tags), so 1,000 of them take about 0.8 MiB; the first export page's whole budget, with the
/// habits, their schedules and the records, is `ScheduleLimit`'s. Five times as many would not
/// fit at all.
public enum RestPeriodLimit {
    /// The most rest periods one user may have.
    public static let perUser = 1000

    /// Why one more rest period is refused, for a user who has `count` already.
    public static func reached(count: Int) -> String {
        "a user may have at most \(perUser) rest periods (this one has \(count)): "
            + "remove one (RemoveRestPeriod) to make room"
    }
}
