import StreakStorage

/// What a write of this server may change: some days' completions and skips, the habits and
/// settings, or anything (a write whose answer reads the whole user again).
enum WriteScope: Sendable {
    case days([Int])
    case habitsOrSettings
    case everything

    init(_ write: StoreWrite) {
        switch write {
        case .completions(let changes):
            self = .days(changes.count == 1 ? [changes[0].date.dayNumber] : Array(Set(changes.map(\.date.dayNumber))))
        case .deleteHabit, .unarchiveHabit, .importData: self = .everything
        default: self = .habitsOrSettings
        }
    }
}

/// The bookkeeping of this server's writes that keeps a change read from the store from undoing
/// one of them: what is in flight, and, while reads are pending, what was applied since when.
struct OwnWrites {
    var inFlightDays: [Int: Int] = [:]
    var inFlightHabits = 0
    var inFlightEverything = 0
    /// Counts applied writes; a read's mark is its value when the read began.
    var sequence: UInt64 = 0
    /// Reads of other servers' changes not applied yet; the stamps are kept only while there are.
    var reads = 0
    var dayStamps: [Int: UInt64] = [:]
    var habitsStamp: UInt64 = 0
    var everythingStamp: UInt64 = 0

    mutating func begin(_ scope: WriteScope) {
        switch scope {
        case .days(let days): for day in days { inFlightDays[day, default: 0] += 1 }
        case .habitsOrSettings: inFlightHabits += 1
        case .everything: inFlightEverything += 1
        }
    }

    mutating func finish(_ scope: WriteScope) {
        sequence &+= 1
        switch scope {
        case .days(let days):
            for day in days {
                let left = (inFlightDays[day] ?? 1) - 1
                inFlightDays[day] = left > 0 ? left : nil
                if reads > 0 { dayStamps[day] = sequence }
            }
        case .habitsOrSettings:
            inFlightHabits -= 1
            habitsStamp = sequence
        case .everything:
            inFlightEverything -= 1
            everythingStamp = sequence
        }
    }

    mutating func beginRead() -> UInt64 {
        reads += 1
        return sequence
    }

    mutating func endRead() {
        reads -= 1
        if reads == 0 { dayStamps.removeAll() }
    }

    func touchedEverything(since mark: UInt64) -> Bool {
        inFlightEverything > 0 || everythingStamp > mark
    }

    func touchedHabits(since mark: UInt64) -> Bool {
        touchedEverything(since: mark) || inFlightHabits > 0 || habitsStamp > mark
    }

    func touchedDay(_ day: Int, since mark: UInt64) -> Bool {
        touchedEverything(since: mark) || inFlightDays[day] != nil || (dayStamps[day] ?? 0) > mark
    }
}
