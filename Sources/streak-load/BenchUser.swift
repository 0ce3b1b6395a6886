import StreakClient
import StreakCore
import StreakWire

/// One user of the benchmark's data set: a token and five habits with a year of completions.
struct BenchUser: Sendable {
    /// The bearer token.
    let token: String
    /// The ids of the user's habits.
    var habitIDs: [Int64]

    /// The day every request's `as_of` names, so that answers are reproducible.
    static let asOf = try! CivilDate(year: 2026, month: 6, day: 30)
    /// The number of habits per user.
    static let habitCount = 5

    /// Loads the user's habits, creating the data set first when `create` is set and it is missing.
    static func prepare(token: String, connection: LoadConnection, create: Bool) throws(LoadError) -> BenchUser {
        var ids = try habitIDs(token: token, connection: connection)
        guard create, ids.count < habitCount else { return BenchUser(token: token, habitIDs: ids) }
        for index in ids.count..<habitCount {
            var request = WireCreateHabitRequest()
            request.name = habitName(index)
            request.createdOn = createdOn
            let template = RequestTemplate(
                method: WireMethod.createHabit.rawValue,
                token: token,
                message: request.serializedBytes()
            )
            _ = try connection.call(template, id: UInt32(index + 10))
        }
        ids = try habitIDs(token: token, connection: connection)
        try recordYear(token: token, habitIDs: ids, connection: connection)
        return BenchUser(token: token, habitIDs: ids)
    }

    private static func habitIDs(token: String, connection: LoadConnection) throws(LoadError) -> [Int64] {
        let template = RequestTemplate(
            method: WireMethod.listHabits.rawValue,
            token: token,
            message: WireListHabitsRequest().serializedBytes()
        )
        let bytes = try connection.call(template, id: 1)
        do {
            return try WireListHabitsResponse(serializedBytes: bytes).habits.map(\.id).sorted()
        } catch {
            throw LoadError("cannot decode ListHabits: \(error)")
        }
    }

    /// The seed of a user known by token only (`prepare`).
    static func seed(token: String) -> UInt64 {
        token.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// The seed of the user on line `index` (from 0) of a tokens file (`populate`, `generate`):
    /// the same data for the same position, whichever way the store was filled.
    static func seed(index: Int) -> UInt64 { UInt64(index) &+ 0x5eed }

    /// The days of a year before `asOf` on which each of `habitCount` habits is done, each habit
    /// with its own seeded rate (45 % to 85 %).
    static func yearOfDays(seed: UInt64) -> [[CivilDate]] {
        var generator = SplitMix64(seed: seed)
        return (0..<habitCount).map { index in
            let rate = 0.45 + 0.1 * Double(index)
            return (0..<365).compactMap { offset in
                Double(generator.next() % 1000) / 1000 < rate ? try! asOf.adding(days: -offset) : nil
            }
        }
    }

    /// The name of the user's habit at `index` (from 0).
    static func habitName(_ index: Int) -> String { "bench habit \(index + 1)" }

    /// Every habit's first day.
    static let createdOn = try! asOf.adding(days: -400)

    /// The data set of one user as one ImportData request: the same habits as `prepare`, the
    /// days of `yearOfDays(seed:)`.
    static func importRequest(seed: UInt64) -> WireImportDataRequest {
        var request = WireImportDataRequest()
        request.habits = yearOfDays(seed: seed).enumerated().map { index, days in
            var habit = WireImportHabit()
            habit.name = habitName(index)
            habit.createdOn = createdOn
            habit.completions = days
            return habit
        }
        return request
    }

    /// A year of completions before `asOf` (`yearOfDays`), in batches.
    private static func recordYear(token: String, habitIDs: [Int64], connection: LoadConnection) throws(LoadError) {
        var completions: [WireCompletion] = []
        for (habitID, days) in zip(habitIDs, yearOfDays(seed: seed(token: token))) {
            for date in days {
                var completion = WireCompletion()
                completion.habitId = habitID
                completion.date = date
                completions.append(completion)
            }
        }
        var requestID: UInt32 = 100
        for start in stride(from: 0, to: completions.count, by: 500) {
            var request = WireBatchCompletionsRequest()
            request.record = Array(completions[start..<min(start + 500, completions.count)])
            request.asOf = asOf
            let template = RequestTemplate(
                method: WireMethod.batchCompletions.rawValue,
                token: token,
                message: request.serializedBytes()
            )
            requestID += 1
            _ = try connection.call(template, id: requestID)
        }
    }
}
