/// How many schedule entries a habit may have (docs/PROTOCOL.md section 2.2). Setting a schedule
/// on a date the habit already has an entry for replaces that entry, and is always allowed.
///
/// The number keeps every answer that lists a user's habits with their schedules inside the
/// 4 MiB frame (4,194,304 bytes), and decodable within a client's default decoding budget
/// (16 MiB of unpacked messages, `DecodingLimits.default`, with which StreakClient decodes every
/// answer). The largest is the first ExportData page, which at its worst holds:
///
/// - 1,000 habits (`HabitLimit`) of at most 835 bytes each without their schedules: 835,000;
/// - 1,000 rest periods (`RestPeriodLimit`) of at most 834 bytes each: 834,000;
/// - 65,536 records (the largest page size) of at most 21 bytes each: 1,376,256;
/// - the settings, the counts and the frame's header: under 1,000;
/// - the schedules: at most 20 bytes an entry (its date, seven packed weekdays and the tags).
///
/// The frame alone would allow 57 entries a habit (the 100 first proposed make the page about
/// 5,045,000 bytes). The decoding budget is tighter: an entry unpacks to about 130 bytes (its
/// struct, its date's, its weekdays and a pointer), against 11.9 MB for the rest of that page,
/// so 30 entries a habit need 16.7 MB and 50 need 21.4 MB. With 20 the page is at most 3,444,322
/// bytes and unpacks in 15.5 MB. ListHabits and ImportData's answer at the limits are smaller.
public enum ScheduleLimit {
    /// The most schedule entries one habit may have.
    public static let perHabit = 20

    /// Why one more schedule entry is refused, for a habit that has `count` already.
    public static func reached(count: Int) -> String {
        "a habit may have at most \(perHabit) schedule entries (this one has \(count)): "
            + "set the schedule from one of its existing dates instead, which replaces that entry"
    }
}
