import Foundation
import StreakClient
import StreakCore
import StreakTestSupport
import StreakWire
import Testing

@Suite("StreakClient against a real streakd", .serialized)
struct LibraryTests {
    private static func date(_ text: String) -> CivilDate { try! CivilDate(parsing: text) }

    private func client(_ server: ServerProcess, token: String? = nil) -> StreakClient {
        StreakClient(
            configuration: ClientConfiguration(
                server: ServerAddress(host: "127.0.0.1", port: server.port),
                token: token ?? server.token
            )
        )
    }

    @Test(.ownThreads) func habitsCompletionsAndStreak() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let client = client(server)
        defer { client.close() }
        let habit = try await client.createHabit(name: "Read", createdOn: Self.date("2024-01-01"))
        #expect(habit.id > 0)
        for day in ["2024-01-01", "2024-01-02", "2024-01-03"] {
            _ = try await client.recordCompletion(
                habitID: habit.id,
                date: Self.date(day),
                asOf: Self.date("2024-01-03")
            )
        }
        let again = try await client.recordCompletion(
            habitID: habit.id,
            date: Self.date("2024-01-03"),
            asOf: Self.date("2024-01-03")
        )
        #expect(again.changed == false)
        let streak = try await client.streak(asOf: Self.date("2024-01-04"))
        #expect(streak.current == 3)
        #expect(streak.todayPending)
        let habits = try await client.listHabits()
        #expect(habits.map(\.name) == ["Read"])
        do {
            _ = try await client.renameHabit(id: 9999, to: "x")
            Issue.record("expected NOT_FOUND")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.origin == .server)
        }
    }

    @Test(.ownThreads) func manyConcurrentCallsShareOneConnection() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let client = client(server)
        defer { client.close() }
        let habit = try await client.createHabit(name: "Run", createdOn: Self.date("2024-01-01"))
        let connection = try await client.connection()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for offset in 0..<100 {
                group.addTask {
                    let day = try Self.date("2024-01-01").adding(days: offset)
                    _ = try await client.recordCompletion(habitID: habit.id, date: day, asOf: Self.date("2024-04-10"))
                }
            }
            try await group.waitForAll()
        }
        let streak = try await client.streak(asOf: Self.date("2024-04-09"))
        #expect(streak.current == 100)
        #expect(try await client.connection() === connection)
    }

    @Test(.ownThreads) func watchDeliversChanges() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let watcher = client(server)
        let writer = client(server)
        defer {
            watcher.close()
            writer.close()
        }
        let habit = try await writer.createHabit(name: "Meditate", createdOn: Self.date("2024-01-01"))
        let events = try await watcher.watch(WireWatchRequest(asOf: Self.date("2024-02-01")))
        let received = Flag()
        let task = Task(executorPreference: TestThreads.shared) {
            () async throws(StreakClientError) -> WireWatchEvent? in
            for try await event in events {
                received.set()
                return event
            }
            return nil
        }
        // The server registers the watch asynchronously: write until the first event arrives (bounded).
        for attempt in 0..<100 where !received.isSet {
            _ = try await writer.recordCompletion(
                habitID: habit.id,
                date: try Self.date("2024-01-01").adding(days: attempt)
            )
            try await Task.sleep(for: .milliseconds(20))
        }
        if !received.isSet { task.cancel() }
        let event = try await task.value
        #expect(event?.day?.completed == 1)
        #expect(event?.streak != nil)
    }

    @Test(.ownThreads) func wrongTokenIsUnauthenticated() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let client = client(server, token: "stk_" + String(repeating: "a", count: 64))
        defer { client.close() }
        do {
            _ = try await client.listHabits()
            Issue.record("expected UNAUTHENTICATED")
        } catch {
            #expect(error.code == .unauthenticated)
        }
        let pong = try await client.ping(payload: [1, 2, 3])
        #expect(pong.payload == [1, 2, 3])
    }
}

/// A flag set once from another task.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
