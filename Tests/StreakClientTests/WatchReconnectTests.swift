import Foundation
import StreakClient
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The watch subscribes again after a GOAWAY, a shutdown or a dropped connection.
@Suite("Watch reconnects")
struct WatchReconnectTests {
    /// Fast enough for tests; enough attempts for a server that takes a few seconds to restart.
    static let policy = WatchReconnectPolicy(
        maxAttempts: 60,
        initialBackoff: .milliseconds(50),
        maxBackoff: .milliseconds(500)
    )

    static func event(current: Int32) -> [UInt8] {
        var streak = WireStreakSummary()
        streak.current = current
        return WireWatchEvent(day: WireDayRecord(), streak: streak).serializedBytes()
    }

    static func client(port: Int, token: String? = "stk_test") -> StreakClient {
        StreakClient(
            configuration: ClientConfiguration(
                server: ServerAddress(host: "127.0.0.1", port: port),
                token: token,
                defaultDeadline: .seconds(30)
            )
        )
    }

    static func watchRequests(_ server: FakeServer) -> Int {
        server.frames.filter {
            if case .request(_, let method, _, _) = $0 { method == WireMethod.watch.rawValue } else { false }
        }.count
    }

    enum Loss: String, CaseIterable, Sendable {
        /// What streakd does on SIGTERM: END_STREAM UNAVAILABLE, GOAWAY, close.
        case shutdown
        /// A GOAWAY whose last id excludes the stream, then close.
        case goAwayExcludingTheStream
        /// The connection ends without a word.
        case connectionDrop
    }

    @Test(.ownThreads, .timeLimit(.minutes(1)), arguments: Loss.allCases)
    func resubscribesOnAFreshConnection(loss: Loss) async throws {
        // Each connection sends one event (its index + 1); the first then loses the stream.
        let server = try FakeServer { index, frame, peer in
            guard case .request(let id, let method, _, _) = frame, method == WireMethod.watch.rawValue else { return }
            peer.send(.streamMessage(id: id, message: Self.event(current: Int32(index + 1))))
            guard index == 0 else { return }
            switch loss {
            case .shutdown:
                peer.send(.endStream(id: id, status: Status(.unavailable, "the server is shutting down")))
                peer.send(.goAway(lastRequestID: id, status: Status(.unavailable, "shutting down")))
            case .goAwayExcludingTheStream:
                peer.send(.goAway(lastRequestID: id - 1, status: Status(.unavailable, "shutting down")))
            case .connectionDrop:
                break
            }
            _ = Glibc.shutdown(peer.descriptor, Int32(SHUT_RDWR))
        }
        defer { server.stop() }
        let client = Self.client(port: server.port)
        defer { client.close() }
        let lost = Recorder<StreakClientError>()
        let events = try await client.watch(reconnect: Self.policy) { lost.append($0) }
        var iterator = events.makeAsyncIterator()
        var currents: [Int32] = []
        while currents.last != 2, let event = try await iterator.next() {
            currents.append(event.streak?.current ?? 0)
        }
        #expect(currents.first == 1)
        #expect(currents.last == 2)
        #expect(server.connectionCount == 2)
        #expect(lost.values.count == 1)
        #expect(lost.values.allSatisfy { $0.code == .unavailable })
    }

    @Test(.ownThreads, .timeLimit(.minutes(1)))
    func givesUpAfterItsAttempts() async throws {
        let server = try FakeServer { _, frame, peer in
            guard case .request(let id, _, _, _) = frame else { return }
            peer.send(.endStream(id: id, status: Status(.unavailable, "the server is shutting down")))
        }
        defer { server.stop() }
        let client = Self.client(port: server.port)
        defer { client.close() }
        // Backoffs of 1, 2 and 4 ms; a long maxBackoff keeps the "stable subscription" reset
        // (maxBackoff x 10 = 20 s) out of reach however slowly a loaded machine answers.
        let policy = WatchReconnectPolicy(
            maxAttempts: 3,
            initialBackoff: .milliseconds(1),
            maxBackoff: .seconds(2)
        )
        let events = try await client.watch(reconnect: policy)
        do {
            for try await _ in events { Issue.record("no event was sent") }
            Issue.record("the watch ended without an error")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("gave up after 3 reconnection attempts"), "\(error.message)")
        }
        #expect(Self.watchRequests(server) == 4)  // the first subscription and three more
    }

    @Test(.ownThreads, .timeLimit(.minutes(1)))
    func otherErrorsAndNeverEndTheWatch() async throws {
        let server = try FakeServer { _, frame, peer in
            guard case .request(let id, _, let metadata, _) = frame else { return }
            let code: Status.Code = metadata.contains { $0.value == "Bearer good" } ? .unavailable : .unauthenticated
            peer.send(.endStream(id: id, status: Status(code, "no")))
        }
        defer { server.stop() }
        for (token, policy, code) in [
            ("bad", WatchReconnectPolicy.default, Status.Code.unauthenticated),
            ("good", WatchReconnectPolicy.never, Status.Code.unavailable),
        ] {
            let before = Self.watchRequests(server)
            let client = Self.client(port: server.port, token: token)
            defer { client.close() }
            do {
                for try await _ in try await client.watch(reconnect: policy) { Issue.record("no event was sent") }
                Issue.record("the watch ended without an error")
            } catch {
                #expect(error.code == code)
            }
            #expect(Self.watchRequests(server) == before + 1)
        }
    }

    @Test(.ownThreads, .timeLimit(.minutes(1)))
    func closeStopsTheWatchInsteadOfReconnecting() async throws {
        let (requests, requestSeen) = AsyncStream<Void>.makeStream()
        let server = try FakeServer { _, _, _ in requestSeen.yield() }  // accepts the watch, sends nothing
        defer { server.stop() }
        let client = Self.client(port: server.port)
        let events = try await client.watch(reconnect: Self.policy)
        for await _ in requests { break }  // the server has the subscription
        client.close()
        var iterator = events.makeAsyncIterator()
        do {
            while try await iterator.next() != nil { Issue.record("no event was sent") }
            Issue.record("the watch ended without an error")
        } catch {
            #expect(error.code == .unavailable)
        }
        // The end of the events: the watch's task returned, so nothing can reconnect any more.
        #expect(try await iterator.next() == nil)
        #expect(server.connectionCount == 1)
        #expect(Self.watchRequests(server) == 1)
    }

    /// A real streakd stopped (SIGTERM) and started again on the same port and data directory.
    @Test(.ownThreads, .timeLimit(.minutes(2)))
    func libraryWatchSurvivesARestart() async throws {
        let first = try ServerProcess.start()
        defer { first.stop() }
        let watcher = Self.client(port: first.port, token: first.token)
        defer { watcher.close() }
        let habit = try await Self.client(port: first.port, token: first.token)
            .createHabit(name: "Walk", createdOn: try CivilDate(parsing: "2025-01-01"))
        let lost = Recorder<StreakClientError>()
        let events = try await watcher.watch(
            WireWatchRequest(asOf: try CivilDate(parsing: "2025-06-15")),
            reconnect: Self.policy
        ) { lost.append($0) }
        let received = Recorder<CivilDate>()
        let reader = Task(executorPreference: TestThreads.shared) {
            for try await event in events {
                if let date = event.day?.date { received.append(date) }
            }
        }
        defer { reader.cancel() }

        // No frame says when a server has registered a watch: write until an event comes.
        try await Self.record(habit.id, from: "2025-02-01", port: first.port, token: first.token, until: received)
        #expect(first.stop() == 0)
        let second = try ServerProcess.start(dataDirectory: first.dataDirectory, port: first.port)
        defer { second.stop() }
        try await Self.record(habit.id, from: "2025-03-01", port: second.port, token: second.token, until: received)

        #expect(received.values.first?.month == 2)
        #expect(received.values.last?.month == 3)
        #expect(lost.values.count == 1)
    }

    /// Records one day after another with a fresh client until `received` grows (at most 200 days).
    static func record(
        _ habitID: Int64,
        from start: String,
        port: Int,
        token: String?,
        until received: Recorder<CivilDate>
    ) async throws {
        let writer = client(port: port, token: token)
        defer { writer.close() }
        let before = received.values.count
        let first = try CivilDate(parsing: start)
        for offset in 0..<200 where received.values.count == before {
            _ = try await writer.recordCompletion(habitID: habitID, date: try first.adding(days: offset % 28))
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(received.values.count > before, "no event for the completions from \(start)")
    }
}

/// Values appended from any task or thread.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}
