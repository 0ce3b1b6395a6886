import StreakCore
import StreakStorage
import Testing

@testable import StreakServer

/// The bookkeeping that keeps a read of another server's change from undoing this server's
/// writes, transition by transition: what a read may apply depends on the writes in flight and
/// on those finished since the read began.
@Suite("This server's writes against reads of other servers' changes")
struct OwnWritesTests {
    @Test("a day's write in flight blocks that day only; finished before a read began, it blocks nothing")
    func dayInFlight() {
        var writes = OwnWrites()
        writes.begin(.days([10, 11]))
        let mark = writes.beginRead()
        #expect(writes.touchedDay(10, since: mark))
        #expect(writes.touchedDay(11, since: mark))
        #expect(!writes.touchedDay(12, since: mark))
        #expect(!writes.touchedHabits(since: mark))
        writes.endRead()

        writes.finish(.days([10, 11]))
        let later = writes.beginRead()
        #expect(!writes.touchedDay(10, since: later))
        #expect(!writes.touchedHabits(since: later))
    }

    @Test("a day's write finished while a read is pending blocks that day until every read ended")
    func dayFinishedDuringARead() {
        var writes = OwnWrites()
        let first = writes.beginRead()
        let second = writes.beginRead()
        writes.begin(.days([10]))
        writes.finish(.days([10]))
        #expect(writes.touchedDay(10, since: first))
        #expect(writes.touchedDay(10, since: second))
        #expect(!writes.touchedDay(9, since: first))

        writes.endRead()
        #expect(writes.touchedDay(10, since: first), "one read is still pending: the stamp stays")
        writes.endRead()
        let fresh = writes.beginRead()
        #expect(!writes.touchedDay(10, since: fresh))
    }

    @Test("the same day written twice stays in flight until both finished")
    func overlappingWritesOfADay() {
        var writes = OwnWrites()
        writes.begin(.days([10]))
        writes.begin(.days([10]))
        writes.finish(.days([10]))
        #expect(writes.touchedDay(10, since: writes.beginRead()))
        writes.endRead()
        writes.finish(.days([10]))
        #expect(!writes.touchedDay(10, since: writes.beginRead()))
    }

    @Test("a habits or settings write blocks habits and settings, not days")
    func habitsOrSettings() {
        var writes = OwnWrites()
        let mark = writes.beginRead()
        writes.begin(.habitsOrSettings)
        #expect(writes.touchedHabits(since: mark))
        #expect(!writes.touchedDay(10, since: mark))
        writes.finish(.habitsOrSettings)
        #expect(writes.touchedHabits(since: mark), "finished after the read began")
        writes.endRead()
        #expect(!writes.touchedHabits(since: writes.beginRead()))
    }

    @Test("a write of everything blocks every day and the habits, in flight and once finished")
    func everything() {
        var writes = OwnWrites()
        let mark = writes.beginRead()
        writes.begin(.everything)
        #expect(writes.touchedDay(1, since: mark))
        #expect(writes.touchedHabits(since: mark))
        writes.finish(.everything)
        #expect(writes.touchedDay(99, since: mark))
        #expect(writes.touchedEverything(since: mark))
        writes.endRead()
        let later = writes.beginRead()
        #expect(!writes.touchedEverything(since: later))
        #expect(!writes.touchedDay(99, since: later))
    }

    @Test("a write's scope: one day, several days once each, or everything for whole-user writes")
    func scopes() throws {
        let day = try CivilDate(parsing: "2024-03-05")
        let next = try day.adding(days: 1)
        let one = WriteScope(.completions([.record(habitID: 1, date: day)]))
        guard case .days(let days) = one else {
            Issue.record("not days: \(one)")
            return
        }
        #expect(days == [day.dayNumber])

        let changes: [CompletionChange] = [
            .record(habitID: 1, date: day), .record(habitID: 2, date: day), .remove(habitID: 1, date: next),
        ]
        let several = WriteScope(.completions(changes))
        guard case .days(let both) = several else {
            Issue.record("not days: \(several)")
            return
        }
        #expect(both.sorted() == [day.dayNumber, next.dayNumber])

        guard case .everything = WriteScope(.deleteHabit(id: 1)) else {
            Issue.record("delete")
            return
        }
    }
}
