import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

/// The user memory budget: a server that must keep evicting its users answers exactly like one
/// that keeps them all, and a user with an open Watch stays in memory.
@Suite struct UserMemoryTests {
    /// Creates `names` in the data directory (or database) of `arguments` with `streakd user import`.
    /// - Returns: each name's token.
    static func createUsers(_ names: [String], arguments: [String]) throws -> [String: String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try names.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let (status, output, error) = try ServerProcess.run(["user", "import", file.path] + arguments)
        guard status == 0 else { throw TestSupportError("user import failed: \(error)") }
        var tokens: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2 { tokens[String(fields[0])] = String(fields[1]) }
        }
        return tokens
    }

    /// GetServerInfo with `token` (it loads no user).
    static func info(_ connection: TestConnection, token: String) throws -> WireGetServerInfoResponse {
        try connection.call(.getServerInfo, WireGetServerInfoRequest(), token: token)
    }

    @Test(
        "under a tiny budget every answer equals an unbounded server's (random histories, writes and reads from several connections)",
        arguments: [("1", UInt64(1), false), ("48k", 2, false), ("1", 3, true)]
    )
    func evictionIsInvisible(budget: String, seed: UInt64, postgres: Bool) throws {
        // The bounded server on PostgreSQL when one is configured: its slower commits leave more
        // time for a request to meet its user's write in flight.
        let database = postgres && PostgresTestDatabase.serverURL != nil ? try PostgresTestDatabase() : nil
        let storage = database.map { ["--database-url", $0.url] } ?? []
        let names = (0..<12).map { "user\($0)" }
        let bounded = ServerProcess.temporaryDirectory()
        let unbounded = ServerProcess.temporaryDirectory()
        let boundedTokens = try Self.createUsers(names, arguments: ["--data-dir", bounded.path] + storage)
        let unboundedTokens = try Self.createUsers(names, arguments: ["--data-dir", unbounded.path])
        let small = try ServerProcess.start(
            dataDirectory: bounded,
            extraArguments: ["--user-memory-budget", budget] + storage
        )
        let large = try ServerProcess.start(
            dataDirectory: unbounded,
            extraArguments: ["--user-memory-budget", "unlimited"]
        )
        defer {
            small.stop()
            large.stop()
            small.removeDataDirectory()
            large.removeDataDirectory()
        }
        let pairs = names.map { (small: boundedTokens[$0]!, large: unboundedTokens[$0]!) }

        // Habits and rest periods one user at a time, so that both stores give the same ids.
        let setup = try TwinConnection(small: small, large: large)
        var random = SplitMix64(seed: seed)
        var habits: [[Int64]] = []
        var restPeriods: [[Int64]] = []
        for pair in pairs {
            var ids: [Int64] = []
            for index in 0..<(2 + Int(random.next() % 3)) {
                let request = WireCreateHabitRequest.with {
                    $0.name = "habit \(index)"
                    $0.createdOn = try? RandomHistory.start.adding(days: Int(random.next() % 20))
                    if random.next() % 3 == 0 {
                        $0.schedule = WireWeekdaySet(weekdays: [.monday, .wednesday, .friday])
                    }
                }
                let answer = try setup.same(.createHabit, request, pair)
                ids.append(try #require(try WireCreateHabitResponse(serializedBytes: answer).habit?.id))
            }
            habits.append(ids)
            var periods: [Int64] = []
            for _ in 0..<Int(random.next() % 3) {
                let from = try RandomHistory.start.adding(days: 20 + Int(random.next() % 100))
                let request = WireAddRestPeriodRequest.with {
                    $0.from = from
                    $0.to = try? from.adding(days: Int(random.next() % 6))
                    $0.note = "away"
                }
                let answer = try setup.same(.addRestPeriod, request, pair)
                periods.append(try #require(try WireAddRestPeriodResponse(serializedBytes: answer).restPeriod?.id))
            }
            restPeriods.append(periods)
        }

        // Then random writes and reads from three connections at once, each on its own users.
        let failures = Mutex<[String]>([])
        let (allHabits, allPeriods) = (habits, restPeriods)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            do {
                let twin = try TwinConnection(small: small, large: large)
                var history = RandomHistory(seed: seed &* 31 &+ UInt64(worker))
                let mine = pairs.indices.filter { $0 % 3 == worker }
                for _ in 0..<250 {
                    let user = mine[history.below(mine.count)]
                    let (method, message) = history.next(habits: allHabits[user], restPeriods: allPeriods[user])
                    _ = try twin.same(method, message, pairs[user])
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])

        // Then completions recorded from four connections at once for the same users, eight in
        // flight on each beside reads of them (an order-free mix: only the final state is compared).
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                let twin = try TwinConnection(small: small, large: large)
                var history = RandomHistory(seed: seed &* 97 &+ UInt64(worker))
                for round in 0..<50 {
                    var calls: [(WireMethod, any WireMessage, (small: String, large: String))] = []
                    for slot in 0..<8 {
                        // Each worker's record on a day of its own, after the days written so
                        // far: a record lost in memory is seldom hidden by a later one.
                        let serial = round * 8 + slot
                        let user = history.below(pairs.count)
                        let habit = allHabits[user][history.below(allHabits[user].count)]
                        if history.below(3) == 0 {
                            calls.append((.getStreak, WireGetStreakRequest(), pairs[user]))
                        } else {
                            let date = try RandomHistory.start.adding(days: 200 + serial)
                            calls.append(
                                (
                                    .recordCompletion,
                                    WireRecordCompletionRequest.with {
                                        $0.habitId = habit
                                        $0.date = date
                                    }, pairs[user]
                                )
                            )
                        }
                    }
                    try twin.pipelined(calls)
                }
            } catch {
                failures.withLock { $0.append("recording worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])

        // Everything, once more, after the dust settled.
        for (index, pair) in pairs.enumerated() {
            for (habitIDs, first) in [([], 0), ([habits[index][0]], 0), ([], 200), ([], 380)] {
                let request = WireGetHeatmapRequest.with {
                    $0.from = try? RandomHistory.start.adding(days: first)
                    $0.to = try? RandomHistory.start.adding(days: first + 180)
                    $0.asOf = try? RandomHistory.start.adding(days: first + 180)
                    $0.habitIds = habitIDs
                }
                _ = try setup.same(.getHeatmap, request, pair)
            }
            _ = try setup.same(.listHabits, WireListHabitsRequest.with { $0.includeArchived = true }, pair)
            _ = try setup.same(.listRestPeriods, WireListRestPeriodsRequest(), pair)
            _ = try setup.same(.getSettings, WireGetSettingsRequest(), pair)
        }
        let smallInfo = try Self.info(setup.small, token: pairs[0].small)
        let largeInfo = try Self.info(setup.large, token: pairs[0].large)
        #expect(smallInfo.usersEvicted > 0, "the budget made the server evict")
        #expect(smallInfo.userMemoryBudgetBytes > 0 && largeInfo.userMemoryBudgetBytes == 0)
        #expect(largeInfo.usersEvicted == 0 && largeInfo.usersHeld == UInt64(names.count))
        #expect(largeInfo.userMemoryBytes > 12 * 4_000)
    }

    @Test("a user with an open Watch stays in memory under a budget too small for anyone, and its events come")
    func watchPinsItsUser() throws {
        let directory = ServerProcess.temporaryDirectory()
        let names = ["watched"] + (0..<6).map { "other\($0)" }
        let tokens = try Self.createUsers(names, arguments: ["--data-dir", directory.path])
        let server = try ServerProcess.start(dataDirectory: directory, extraArguments: ["--user-memory-budget", "1"])
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let watched = tokens["watched"]!
        let writer = try server.connect()
        let habit = try #require(
            try writer.call(
                .createHabit,
                WireCreateHabitRequest.with {
                    $0.name = "Read"
                    $0.createdOn = day("2024-01-01")
                },
                token: watched,
                as: WireCreateHabitResponse.self
            ).habit
        )
        let watcher = try server.connect()
        let stream = try watcher.sendRequest(
            WireMethod.watch.rawValue,
            message: WireWatchRequest.with { $0.asOf = day("2024-01-31") }.serializedBytes(),
            token: watched
        )
        _ = try watcher.status(of: .ping, WirePingRequest(), token: nil)

        // Everyone else comes and goes; each load passes the budget and evicts all it can.
        let other = try server.connect()
        for round in 0..<3 {
            for name in names.dropFirst() {
                let _: WireListHabitsResponse = try other.call(
                    .listHabits,
                    WireListHabitsRequest(),
                    token: tokens[name]!
                )
                let _: WireCreateHabitResponse = try other.call(
                    .createHabit,
                    WireCreateHabitRequest.with { $0.name = "h\(round)" },
                    token: tokens[name]!
                )
            }
        }
        let probe = tokens["other0"]!
        var info = try Self.info(other, token: probe)
        let deadline = ContinuousClock.now + .seconds(10)
        while info.usersHeld != 1 && ContinuousClock.now < deadline {
            usleep(20_000)
            info = try Self.info(other, token: probe)
        }
        #expect(info.usersHeld == 1, "only the watched user stays")
        #expect(info.usersEvicted >= 6)

        // Its events still come, computed from its state.
        let _: WireCompletionResponse = try writer.call(
            .recordCompletion,
            WireRecordCompletionRequest.with {
                $0.habitId = habit.id
                $0.date = day("2024-01-31")
            },
            token: watched
        )
        let frame = try #require(try watcher.readFrame())
        guard case .streamMessage(let id, let bytes) = frame else {
            Issue.record("expected a watch event, got \(frame)")
            return
        }
        let event = try WireWatchEvent(serializedBytes: bytes)
        #expect(id == stream && event.day?.completed == 1 && event.streak?.current == 1)

        // Once the stream ends, the next load past the budget evicts it too.
        watcher.close()
        let after = ContinuousClock.now + .seconds(10)
        repeat {
            let _: WireListHabitsResponse = try other.call(.listHabits, WireListHabitsRequest(), token: probe)
            usleep(20_000)
            info = try Self.info(other, token: probe)
        } while info.usersHeld != 0 && ContinuousClock.now < after
        #expect(info.usersHeld == 0)
    }

    @Test("a bad budget is refused with the rule; the environment variable sets it")
    func budgetOption() throws {
        for bad in ["12q", "-5", "1.5M", "99999999999G", "", "0", "0MiB"] {
            let (status, _, error) = try ServerProcess.run(["--user-memory-budget=\(bad)", "--port", "0"])
            #expect(status != 0, "\(bad)")
            // (An empty value is a missing one to the argument parser; 0 would read as no budget.)
            let rule =
                bad.isEmpty
                ? "Missing value for '--user-memory-budget"
                : bad.hasPrefix("0") ? "give 1 to keep no idle user" : "--user-memory-budget must be a number of bytes"
            #expect(error.contains(rule), "\(bad): \(error)")
        }
        let server = try ServerProcess.start(environment: ["STREAKD_USER_MEMORY_BUDGET", "3MiB"].pairs)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let connection = try server.connect()
        let info = try Self.info(connection, token: try #require(server.token))
        #expect(info.userMemoryBudgetBytes == 3 << 20)
        let defaults = try ServerProcess.start()
        defer {
            defaults.stop()
            defaults.removeDataDirectory()
        }
        let plain = try Self.info(try defaults.connect(), token: try #require(defaults.token))
        #expect(plain.userMemoryBudgetBytes == 256 << 20)
    }
}

extension Array where Element == String {
    /// `[key, value, key, value]` as a dictionary.
    fileprivate var pairs: [String: String] {
        Dictionary(uniqueKeysWithValues: stride(from: 0, to: count, by: 2).map { (self[$0], self[$0 + 1]) })
    }
}

/// One connection to each of two servers that hold the same data: every call goes to both, and
/// their answers must be the same bytes.
final class TwinConnection {
    let small: TestConnection
    let large: TestConnection

    init(small: ServerProcess, large: ServerProcess) throws {
        self.small = try small.connect()
        self.large = try large.connect()
    }

    /// Sends the call to both; throws unless both answer the same status and bytes.
    /// - Returns: the answer's bytes.
    func same(
        _ method: WireMethod,
        _ message: some WireMessage,
        _ tokens: (small: String, large: String)
    ) throws -> [UInt8] {
        let bytes = message.serializedBytes()
        let first = try small.rawCall(method.rawValue, message: bytes, token: tokens.small)
        let second = try large.rawCall(method.rawValue, message: bytes, token: tokens.large)
        guard first.status == second.status, first.message == second.message else {
            throw TestSupportError(
                "\(method.rawValue): \(first.status) (\(first.message.count) bytes) under the budget, "
                    + "\(second.status) (\(second.message.count) bytes) without"
            )
        }
        return first.message
    }
}

extension TwinConnection {
    /// Sends every call to each server without waiting between them, then waits for all the
    /// answers; their order is the server's, so only their statuses are checked (a record of a
    /// day the habit is not active is refused on both).
    func pipelined(_ calls: [(WireMethod, any WireMessage, (small: String, large: String))]) throws {
        for (connection, small) in [(self.small, true), (large, false)] {
            let ids = try calls.map { method, message, tokens in
                try connection.sendRequest(
                    method.rawValue,
                    message: message.serializedBytes(),
                    token: small ? tokens.small : tokens.large
                )
            }
            for (id, call) in zip(ids, calls) {
                let status = try connection.awaitResponse(id).status
                guard status.code == .ok || status.code == .invalidArgument else {
                    throw TestSupportError("\(call.0.rawValue): \(status)")
                }
            }
        }
    }
}

/// Random requests over one user's habits and rest periods: writes of every kind that create no
/// new ids, and every stateful read.
struct RandomHistory {
    static let start = try! CivilDate(year: 2024, month: 1, day: 1)
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    private mutating func date() -> CivilDate { try! Self.start.adding(days: below(160)) }

    /// The next request: a method and its message.
    mutating func next(habits: [Int64], restPeriods: [Int64]) -> (WireMethod, any WireMessage) {
        let habit = habits[below(habits.count)]
        let date = date()
        let asOf: CivilDate? = below(3) == 0 ? nil : try! Self.start.adding(days: 100 + below(80))
        let subset: [Int64] = below(4) == 0 ? [habit] : []
        switch below(20) {
        case 0, 1, 2:
            return (
                .recordCompletion,
                WireRecordCompletionRequest.with {
                    $0.habitId = habit
                    $0.date = date
                    $0.asOf = asOf
                }
            )
        case 3:
            return (
                .removeCompletion,
                WireRemoveCompletionRequest.with {
                    $0.habitId = habit
                    $0.date = date
                }
            )
        case 4:
            return (
                .skipHabit,
                WireSkipHabitRequest.with {
                    $0.habitId = habit
                    $0.date = date
                }
            )
        case 5:
            return (
                .unskipHabit,
                WireUnskipHabitRequest.with {
                    $0.habitId = habit
                    $0.date = date
                }
            )
        case 6:
            let records = (0..<(1 + below(6))).map { _ in
                WireCompletion(habitId: habits[below(habits.count)], date: self.date())
            }
            return (
                .batchCompletions,
                WireBatchCompletionsRequest.with {
                    $0.record = records
                    $0.asOf = asOf
                }
            )
        case 7:
            switch below(6) {
            case 0:
                return (
                    .archiveHabit,
                    WireArchiveHabitRequest.with {
                        $0.habitId = habit
                        $0.archivedOn = date
                    }
                )
            case 1: return (.unarchiveHabit, WireUnarchiveHabitRequest.with { $0.habitId = habit })
            case 2:
                return (
                    .renameHabit,
                    WireRenameHabitRequest.with {
                        $0.habitId = habit
                        $0.name = "renamed \(below(100))"
                    }
                )
            case 3:
                return (
                    .setHabitSchedule,
                    WireSetHabitScheduleRequest.with {
                        $0.habitId = habit
                        $0.weekdays = WireWeekdaySet(
                            weekdays: Weekday.allCases.filter { _ in below(2) == 0 } + [.sunday]
                        )
                        $0.effectiveFrom = date
                    }
                )
            case 4:
                let percent = [0, 50, 80][below(3)]
                return (
                    .updateSettings,
                    WireUpdateSettingsRequest.with {
                        $0.minPercent = Int32(percent)
                        $0.clearMinPercent = percent == 0
                        $0.weekStart = below(2) == 0 ? .monday : .sunday
                    }
                )
            default:
                if let id = restPeriods.isEmpty ? nil : restPeriods[below(restPeriods.count)] {
                    return (.removeRestPeriod, WireRemoveRestPeriodRequest.with { $0.id = id })
                }
                return (.getSettings, WireGetSettingsRequest())
            }
        case 8, 9, 10, 11:
            return (
                .getHeatmap,
                WireGetHeatmapRequest.with {
                    $0.asOf = asOf
                    $0.habitIds = subset
                    if below(2) == 0 {
                        $0.from = Self.start
                        $0.to = try? Self.start.adding(days: 200)
                    }
                }
            )
        case 12, 13:
            return (
                .getStreak,
                WireGetStreakRequest.with {
                    $0.asOf = asOf
                    $0.habitIds = subset
                }
            )
        case 14:
            return (
                .getDay,
                WireGetDayRequest.with {
                    $0.date = date
                    $0.habitIds = subset
                }
            )
        case 15: return (.listHabits, WireListHabitsRequest.with { $0.includeArchived = below(2) == 0 })
        case 16:
            return (
                .getWeekdayChart,
                WireGetWeekdayChartRequest.with {
                    $0.asOf = asOf
                    $0.includeTotal = true
                    $0.habitIds = subset
                }
            )
        case 17:
            return (
                .getMonthPage,
                WireGetMonthPageRequest.with {
                    $0.year = Int32(date.year)
                    $0.month = Int32(date.month)
                    $0.asOf = asOf
                    $0.habitIds = subset
                }
            )
        case 18: return (.listRestPeriods, WireListRestPeriodsRequest())
        default: return (.getSettings, WireGetSettingsRequest())
        }
    }
}
