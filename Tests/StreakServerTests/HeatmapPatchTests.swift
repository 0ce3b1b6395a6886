import FoundationEssentials
import StreakCore
import StreakStorage
import StreakWire
import Testing

@testable import StreakServer

/// A user's cached heatmaps, classic and packed, are patched after a change of some days' records,
/// and every patched answer is byte for byte the answer built from scratch.
@Suite("Cached heatmaps patched after a write")
struct HeatmapPatchTests {
    static let limits = ResponseCacheLimits(entries: 64, bytes: 4 << 20, entryBytes: 1 << 20)
    /// 2024-12-15 12:00 UTC: "today" for the user (zone UTC).
    static let now = Date(timeIntervalSince1970: 1_734_264_000)
    static let start = try! CivilDate(year: 2024, month: 1, day: 1)

    /// Five habits, two of them on schedules, a year of random completions, some skips and a rest period.
    static func randomData(_ random: inout SplitMix64) -> UserData {
        let habits = (1...5).map { id in
            var habit = Habit(id: Int64(id), name: "h\(id)", createdOn: start)
            if id >= 4 { habit.schedule.set(try! WeekdaySet(numbers: [2, 4, 6]), from: try! start.adding(days: 30)) }
            return habit
        }
        let completions = (0..<600).map { _ in
            Completion(habitID: Int64.random(in: 1...5, using: &random), date: randomDay(&random))
        }
        let skips = (0..<30).map { _ in
            Skip(habitID: Int64.random(in: 1...5, using: &random), date: randomDay(&random))
        }
        let rest = RestPeriodRecord(id: 1, period: try! RestPeriod(from: day(200), to: day(206)), note: "")
        return UserData(
            habits: habits,
            completions: completions,
            skips: skips,
            restPeriods: [rest],
            settings: .defaults
        )
    }

    static func day(_ offset: Int) -> CivilDate { try! start.adding(days: offset) }
    static func randomDay(_ random: inout SplitMix64) -> CivilDate { day(Int.random(in: 0..<350, using: &random)) }

    /// GetHeatmap requests: the default, other week starts and ranges, labels, `as_of`, habit
    /// filters, and packed ones (with month labels, another week start and a range).
    static let requests: [WireGetHeatmapRequest] = {
        var list = [WireGetHeatmapRequest()]
        for weekday in [Weekday.sunday, .saturday] {
            var request = WireGetHeatmapRequest()
            request.weekStart = WireWeekStart(kind: .weekday(weekday))
            list.append(request)
        }
        var labels = WireGetHeatmapRequest()
        labels.accessibilityLabels = true
        labels.locale = "de_DE"
        var range = WireGetHeatmapRequest()
        range.from = day(60)
        range.to = day(400)
        range.asOf = day(300)
        var filtered = WireGetHeatmapRequest()
        filtered.habitIds = [2, 4]
        var packed = WireGetHeatmapRequest()
        packed.packed = true
        var packedRange = range
        packedRange.packed = true
        packedRange.packedMonthLabels = true
        packedRange.weekStart = WireWeekStart(kind: .weekday(.saturday))
        return list + [labels, range, filtered, packed, packedRange]
    }()

    /// Caches the answer of every request (of those `only` keeps) that is not cached.
    static func fill(_ user: UserState, only: (WireGetHeatmapRequest) -> Bool = { _ in true }) throws {
        for request in requests where only(request) {
            let bytes = request.serializedBytes()
            let snapshot = user.snapshot(now: now)
            let key = ResponseKey(method: .getHeatmap, todayDayNumber: snapshot.today.dayNumber, message: bytes)
            guard user.cachedResponse(key) == nil else { continue }
            let answer = try ReadComputer(data: snapshot.data, today: snapshot.today).heatmap(bytes)
            #expect(answer.recipe != nil)
            user.cache(answer.bytes, for: key, version: snapshot.version, recipe: answer.recipe)
        }
    }

    /// For each request: whether its answer is cached, after checking it equals the answer built now.
    static func checkCached(_ user: UserState, _ context: String) throws -> [Bool] {
        let snapshot = user.snapshot(now: now)
        let computer = ReadComputer(data: snapshot.data, today: snapshot.today)
        return try requests.map { request in
            let bytes = request.serializedBytes()
            let key = ResponseKey(method: .getHeatmap, todayDayNumber: snapshot.today.dayNumber, message: bytes)
            guard let cached = user.cachedResponse(key) else { return false }
            let built = try computer.heatmap(bytes).bytes
            #expect(cached == built, "\(context), request \(request)")
            return true
        }
    }

    /// A random record, removal, skip (of an active habit) or unskip.
    static func randomChange(_ random: inout SplitMix64, _ user: UserState) -> CompletionChange {
        let habit = Int64.random(in: 1...5, using: &random)
        let date = day(Int.random(in: -5..<360, using: &random))
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .record(habitID: habit, date: date)
        case 1: return .remove(habitID: habit, date: date)
        case 2:
            let valid = user.inspect(now: now) { data, _ in
                (try? data.index.validateSkip(habitID: habit, date: date)) != nil
            }
            return valid ? .skip(habitID: habit, date: date) : .record(habitID: habit, date: date)
        default: return .unskip(habitID: habit, date: date)
        }
    }

    @Test("after each change of one day, the cached answers are patched and equal a fresh build", arguments: 1...6)
    func oneDayChanges(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let user = UserState(id: 1, data: Self.randomData(&random), cacheLimits: Self.limits)
        let filtered = Self.requests.firstIndex { !$0.habitIds.isEmpty }!
        for step in 0..<80 {
            try Self.fill(user)
            let change = Self.randomChange(&random, user)
            _ = user.update(
                now: Self.now,
                changing: CompletionChanges(changes: [change])
            ) { $0.apply([change]) }
            let cached = try Self.checkCached(user, "seed \(seed), step \(step), \(change)")
            for position in Self.requests.indices {
                // The filtered answer is kept when its habits did not change; the others are patched.
                let expected =
                    position != filtered || !Self.requests[filtered].habitIds.contains(change.habitID)
                #expect(cached[position] == expected, "seed \(seed), step \(step), request \(position), \(change)")
            }
        }
    }

    @Test("a change of days in more columns than are patched drops them; an unknown change drops all")
    func largeAndUnknownChanges() throws {
        var random = SplitMix64(seed: 99)
        let user = UserState(id: 1, data: Self.randomData(&random), cacheLimits: Self.limits)
        let streakKey = ResponseKey(method: .getStreak, todayDayNumber: 0, message: [])
        try Self.fill(user)
        user.cache([1, 2, 3], for: streakKey, version: user.snapshot(now: Self.now).version)
        // Four columns: patched; the streak answer, which has no recipe, is dropped.
        let four = (0..<4).map { CompletionChange.record(habitID: 1, date: Self.day(100 + 7 * $0)) }
        _ = user.update(now: Self.now, changing: CompletionChanges(changes: four)) {
            $0.apply(four)
        }
        #expect(try Self.checkCached(user, "four columns").allSatisfy { $0 })
        #expect(user.cachedResponse(streakKey) == nil)
        // Days outside every range change nothing that is cached.
        let outside = [CompletionChange.record(habitID: 1, date: try CivilDate(year: 2020, month: 1, day: 1))]
        _ = user.update(now: Self.now, changing: CompletionChanges(changes: outside)) {
            $0.apply(outside)
        }
        #expect(try Self.checkCached(user, "outside").allSatisfy { $0 })
        // Five columns: built again, except the filtered answer that shows none of the habit.
        let five = (0..<5).map { CompletionChange.record(habitID: 3, date: Self.day(150 + 7 * $0)) }
        _ = user.update(now: Self.now, changing: CompletionChanges(changes: five)) {
            $0.apply(five)
        }
        #expect(try Self.checkCached(user, "five columns") == Self.requests.map { !$0.habitIds.isEmpty })
        try Self.fill(user)
        // A change of unknown habits keeps no filtered answer; one not described keeps nothing.
        let one = [CompletionChange.remove(habitID: 3, date: Self.day(150))]
        _ = user.update(now: Self.now, changing: ChangedRecordDays(days: one.map(\.date))) {
            $0.apply(one)
        }
        #expect(try Self.checkCached(user, "unknown habits") == Self.requests.map { $0.habitIds.isEmpty })
        _ = user.update(now: Self.now) { $0.settings.minPercent = 50 }
        #expect(try Self.checkCached(user, "settings").allSatisfy { !$0 })
    }

    @Test("writes between two reads only note their columns; the read patches them all; a fifth column drops it")
    func writesBetweenReads() throws {
        var random = SplitMix64(seed: 17)
        let user = UserState(id: 1, data: Self.randomData(&random), cacheLimits: Self.limits)
        // Every habit is written: the answer filtered to habits 2 and 4 goes too.
        let patchable = Self.requests.map { $0.habitIds.isEmpty }
        try Self.fill(user)
        // Ten writes in three columns, nothing read between them.
        for step in 0..<10 {
            let change = CompletionChange.record(habitID: Int64(step % 5 + 1), date: Self.day(200 + 7 * (step % 3)))
            _ = user.update(now: Self.now, changing: CompletionChanges(changes: [change])) { $0.apply([change]) }
        }
        #expect(try Self.checkCached(user, "three columns") == patchable)
        try Self.fill(user)
        // Five more columns of habit 1: too many to patch, except where habit 1 is not shown.
        for step in 0..<5 {
            let change = CompletionChange.record(habitID: 1, date: Self.day(70 + 7 * step))
            _ = user.update(now: Self.now, changing: CompletionChanges(changes: [change])) { $0.apply([change]) }
        }
        #expect(try Self.checkCached(user, "five columns") == Self.requests.map { !$0.habitIds.isEmpty })
    }

    @Test("an answer of an earlier today, or one too large to patch on the event loop, goes at a write")
    func earlierTodayAndLargeAnswers() throws {
        var random = SplitMix64(seed: 23)
        let user = UserState(id: 1, data: Self.randomData(&random), cacheLimits: Self.limits)
        let snapshot = user.snapshot(now: Self.now)
        let computer = ReadComputer(data: snapshot.data, today: snapshot.today)
        var years = WireGetHeatmapRequest()
        years.from = Self.day(-1_500)
        years.asOf = Self.day(340)
        years.accessibilityLabels = true
        let large = try computer.heatmap(years.serializedBytes())
        #expect(large.bytes.count > HeatmapRecipe.maximumAnswerBytes && large.recipe == nil)
        // Packed, the same five years are far smaller than a classic answer patched on the loop,
        // but decoding and packing them again would cost a five-year build: no recipe either.
        var packedYears = years
        packedYears.accessibilityLabels = false
        packedYears.packed = true
        let packedLarge = try computer.heatmap(packedYears.serializedBytes())
        #expect(packedLarge.bytes.count > HeatmapRecipe.maximumPackedAnswerBytes && packedLarge.recipe == nil)
        #expect(packedLarge.bytes.count < HeatmapRecipe.maximumAnswerBytes)
        let request = WireGetHeatmapRequest().serializedBytes()
        let answer = try computer.heatmap(request)
        let today = snapshot.today.dayNumber
        let keys = [today - 1, today].map { ResponseKey(method: .getHeatmap, todayDayNumber: $0, message: request) }
        for key in keys { user.cache(answer.bytes, for: key, version: snapshot.version, recipe: answer.recipe) }
        let largeKey = ResponseKey(method: .getHeatmap, todayDayNumber: today, message: years.serializedBytes())
        user.cache(large.bytes, for: largeKey, version: snapshot.version)
        let packedKey = ResponseKey(method: .getHeatmap, todayDayNumber: today, message: packedYears.serializedBytes())
        user.cache(packedLarge.bytes, for: packedKey, version: snapshot.version)
        let change = CompletionChange.record(habitID: 1, date: Self.day(330))
        _ = user.update(now: Self.now, changing: CompletionChanges(changes: [change])) { $0.apply([change]) }
        #expect(user.cachedResponse(keys[0]) == nil && user.cachedResponse(largeKey) == nil)
        #expect(user.cachedResponse(packedKey) == nil)
        let patched = try #require(user.cachedResponse(keys[1]))
        #expect(patched == (try Self.answer(user, WireGetHeatmapRequest())) && patched != answer.bytes)
    }

    @Test("an answer computed from the data before a write is not cached after it")
    func answerOfAnOlderVersion() throws {
        var random = SplitMix64(seed: 4)
        let user = UserState(id: 1, data: Self.randomData(&random), cacheLimits: Self.limits)
        let request = WireGetHeatmapRequest().serializedBytes()
        let snapshot = user.snapshot(now: Self.now)
        let answer = try ReadComputer(data: snapshot.data, today: snapshot.today).heatmap(request)
        // A write lands while the answer is computed (on the slow path): it finds nothing to mark.
        let change = CompletionChange.record(habitID: 2, date: Self.day(300))
        _ = user.update(now: Self.now, changing: CompletionChanges(changes: [change])) { $0.apply([change]) }
        let key = ResponseKey(method: .getHeatmap, todayDayNumber: snapshot.today.dayNumber, message: request)
        user.cache(answer.bytes, for: key, version: snapshot.version, recipe: answer.recipe)
        #expect(user.cachedResponse(key) == nil)
    }

    @Test("a computed streak summary is shared until the next change, and not by a retired state")
    func sharedStreak() throws {
        var random = SplitMix64(seed: 3)
        let user = UserState(id: 1, data: Self.randomData(&random), cacheLimits: Self.limits)
        #expect(user.sharedStreak(asOf: nil, now: Self.now) == nil)
        let (summary, snapshot) = user.currentStreak(asOf: nil, now: Self.now)
        let shared = try #require(user.sharedStreak(asOf: nil, now: Self.now))
        #expect(shared.summary == summary && shared.version == snapshot.version)
        #expect(user.sharedStreak(asOf: Self.day(100), now: Self.now) == nil)
        let change = CompletionChange.record(habitID: 1, date: Self.day(340))
        _ = user.update(now: Self.now, changing: CompletionChanges(changes: [change])) { $0.apply([change]) }
        #expect(user.sharedStreak(asOf: nil, now: Self.now) == nil)
        _ = user.currentStreak(asOf: nil, now: Self.now)
        #expect(user.retire())
        #expect(user.sharedStreak(asOf: nil, now: Self.now) == nil)
    }

    @Test("the cache counts a patched answer's bytes as it counts the same answer built again")
    func bytesFollow() throws {
        var random = SplitMix64(seed: 5)
        let user = UserState(id: 1, data: Self.randomData(&random), cacheLimits: Self.limits)
        try Self.fill(user)
        let before = try Self.requests.map { try Self.answer(user, $0) }
        // Every habit done on a day: its label and percentage grow.
        let date = Self.day(330)
        let changes = (1...5).map { CompletionChange.record(habitID: $0, date: date) }
        _ = user.update(now: Self.now, changing: CompletionChanges(changes: changes)) {
            $0.apply(changes)
        }
        let unfiltered = { (request: WireGetHeatmapRequest) in request.habitIds.isEmpty }
        // Marked stale by the write, patched by the lookups.
        _ = try Self.checkCached(user, "after the write")
        let fresh = UserState(id: 2, data: user.snapshot(now: Self.now).data, cacheLimits: Self.limits)
        try Self.fill(fresh, only: unfiltered)
        #expect(user.cacheUsage == fresh.cacheUsage)
        #expect(user.cacheUsage.entries == Self.requests.filter(unfiltered).count)
        for (position, request) in Self.requests.enumerated() where unfiltered(request) {
            // The answer as of day 300 has no cell for day 330.
            #expect(
                (try Self.answer(user, request) != before[position]) == (request.asOf == nil),
                "request \(position)"
            )
        }
        // The labelled answer now says "100% completed, 5 of 5 habits": more bytes than before.
        let labelled = Self.requests.firstIndex { $0.accessibilityLabels }!
        #expect(try Self.answer(user, Self.requests[labelled]).count > before[labelled].count)
    }

    /// The answer the user's current data gives `request`.
    static func answer(_ user: UserState, _ request: WireGetHeatmapRequest) throws -> [UInt8] {
        let snapshot = user.snapshot(now: now)
        return try ReadComputer(data: snapshot.data, today: snapshot.today).heatmap(request.serializedBytes()).bytes
    }
}
