public import StreakCore

// The compact completion days of BuildHeatmap (docs/PROTOCOL.md section 9.6): `day_deltas` holds
// varints, the first the zig-zag encoded day number (days since 1970-01-01) of the earliest day,
// each next one the gap to the next day, at least 1.
extension WireHabitDays {
    /// The days of one habit, sorted and with repeats dropped.
    public init(habitId: Int64, days: some Sequence<CivilDate>) {
        self.init(habitId: habitId, dayNumbers: days.map(\.dayNumber))
    }

    /// The day numbers (days since 1970-01-01) of one habit, sorted and with repeats dropped.
    public init(habitId: Int64, dayNumbers: some Sequence<Int>) {
        self.init()
        self.habitId = habitId
        var previous: Int?
        for day in Set(dayNumbers).sorted() {
            if let previous {
                PackedVarint.append(UInt32(day - previous), to: &dayDeltas)
            } else {
                PackedVarint.append(PackedVarint.zigZag(Int32(day)), to: &dayDeltas)
            }
            previous = day
        }
    }

    /// The day numbers `day_deltas` encodes, ascending.
    /// - Throws: `WireError(.invalidValue)` for an overlong or truncated varint, a gap of 0 (a day
    ///   repeated or out of order) and a day outside 0001-01-01...9999-12-31, naming the byte.
    public func dayNumbers() throws(WireError) -> [Int] {
        var days: [Int] = []
        days.reserveCapacity(dayDeltas.count)
        try forEachDayNumber { days.append($0) }
        return days
    }

    /// Calls `body` with each day number `day_deltas` encodes, ascending, without collecting them.
    /// - Throws: as `dayNumbers()`, after `body` saw the days before the bad one.
    public func forEachDayNumber(_ body: (Int) -> Void) throws(WireError) {
        let first = CivilDate.min.dayNumber
        let last = CivilDate.max.dayNumber
        var reader = PackedVarintReader(dayDeltas)
        var day: Int?
        while !reader.isAtEnd {
            let offset = reader.offset
            let value: UInt32
            do {
                value = try reader.next()
            } catch {
                throw WireError(.invalidValue, "day_deltas: \(error)")
            }
            let next: Int
            if let day {
                guard value > 0 else {
                    throw WireError(.invalidValue, "day_deltas: a gap of 0 at byte \(offset) (days must ascend)")
                }
                next = day + Int(value)
            } else {
                next = Int(PackedVarint.unZigZag(value))
            }
            guard next >= first && next <= last else {
                throw WireError(
                    .invalidValue,
                    "day_deltas: day number \(next) at byte \(offset) is outside 0001-01-01...9999-12-31"
                )
            }
            body(next)
            day = next
        }
    }
}
