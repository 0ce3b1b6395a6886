import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Many connections, bad connections, and shutdown under load.
@Suite(.serialized) struct ConnectionTests {
    /// Raises this process's soft open-file limit (the server raises its own at start).
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    @Test func thousandConcurrentConnectionsEachCompleteARequest() throws {
        Self.raiseOpenFileLimit()
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        var connections: [TestConnection] = []
        for _ in 0..<1000 { connections.append(try harness.server.connect()) }
        // Every connection sends before any reads, so all 1,000 are open and busy at once.
        var ids: [UInt32] = []
        for (index, connection) in connections.enumerated() {
            let request =
                index % 2 == 0
                ? (WireMethod.getStreak, WireGetStreakRequest.with { $0.asOf = day("2024-02-01") }.serializedBytes())
                : (
                    WireMethod.recordCompletion,
                    WireRecordCompletionRequest.with {
                        $0.habitId = habit.id
                        $0.date = try! day("2024-01-01").adding(days: index % 300)
                    }.serializedBytes()
                )
            ids.append(try connection.sendRequest(request.0.rawValue, message: request.1, token: harness.token))
        }
        var ok = 0
        for (connection, id) in zip(connections, ids) where try connection.awaitResponse(id).status.code == .ok {
            ok += 1
        }
        #expect(ok == 1000)
        let info: WireGetServerInfoResponse = try harness.call(.getServerInfo, WireGetServerInfoRequest())
        #expect(info.connectionsCurrent >= 1000)
        for connection in connections { connection.close() }
    }

    @Test func oversizeFrameOrGarbageClosesOnlyThatConnection() throws {
        let harness = try ServerHarness(extraArguments: ["--max-frame-bytes", "65536"])
        defer { harness.finish() }
        let good = harness.connection
        #expect(try good.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token).code == .ok)

        // A length over the limit: GOAWAY RESOURCE_EXHAUSTED, then the connection closes.
        let big = try harness.server.connect()
        try big.sendRaw([0x00, 0x10, 0x00, 0x00, 1, 0, 0, 0, 1])
        let bigFrames = try Self.framesUntilClose(big)
        #expect(bigFrames.contains { if case .goAway(_, let s) = $0 { s.code == .resourceExhausted } else { false } })

        // Garbage instead of a preface: the server's preface, then GOAWAY 0 INVALID_ARGUMENT "bad preface: ...".
        let garbage = try TestConnection(port: harness.server.port, exchangePreface: false)
        try garbage.sendRaw(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try garbage.readPreface()
        let garbageFrames = garbage.framesUntilClose()
        guard garbageFrames.count == 1, case .goAway(let last, let status) = garbageFrames[0] else {
            Issue.record("expected one GOAWAY, got \(garbageFrames)")
            return
        }
        #expect(last == 0 && status.code == .invalidArgument && status.message.hasPrefix("bad preface: "))

        // Garbage after a good preface: a malformed frame.
        let malformed = try harness.server.connect()
        try malformed.sendRaw([0, 0, 0, 5, 99, 0, 0, 0, 1])
        let malformedFrames = try Self.framesUntilClose(malformed)
        #expect(malformedFrames.contains { if case .goAway = $0 { true } else { false } })

        // The first connection and new ones still work.
        #expect(try good.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token).code == .ok)
        let fresh = try harness.server.connect()
        #expect(try fresh.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
    }

    @Test func sigtermDuringLoadAnswersInFlightRequestsAndExitsZero() throws {
        let harness = try ServerHarness()
        // Active from before the first date the writers record (2001-01-01).
        let habit = try harness.createHabit("h", on: day("2000-01-01"))
        let lost = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let answered = Atomic<Int>(0)
        let writes = Atomic<Int>(0)
        let finishedThreads = Atomic<Int>(0)
        let port = harness.server.port
        let token = harness.token
        let threads = (0..<8).map { index in
            Thread {
                defer { finishedThreads.add(1, ordering: .relaxed) }
                guard let connection = try? TestConnection(port: port) else { return }
                var date = try! day("2001-01-01").adding(days: index * 10_000)
                while true {
                    let message =
                        index % 2 == 0
                        ? WireRecordCompletionRequest.with {
                            $0.habitId = habit.id
                            $0.date = date
                        }.serializedBytes()
                        : WireGetHeatmapRequest.with { $0.asOf = date }.serializedBytes()
                    let method = index % 2 == 0 ? WireMethod.recordCompletion : WireMethod.getHeatmap
                    guard let id = try? connection.sendRequest(method.rawValue, message: message, token: token) else {
                        return
                    }
                    do {
                        let (status, _) = try connection.awaitResponse(id)
                        if status.code == .ok {
                            answered.add(1, ordering: .relaxed)
                            if method == .recordCompletion { writes.add(1, ordering: .relaxed) }
                            date = (try? date.adding(days: 1)) ?? date
                            continue
                        }
                        // Only a request the GOAWAY excludes may go unanswered: one it covers
                        // (id <= last_request_id) must get its real answer.
                        if let last = connection.goAwayLastID, id > last { return }
                        refused.add(1, ordering: .relaxed)
                        print(
                            "request \(id) (GOAWAY last \(connection.goAwayLastID.map(String.init) ?? "none")): \(status)"
                        )
                        return
                    } catch {
                        // Closed without an answer (or a GOAWAY that covered this id).
                        lost.add(1, ordering: .relaxed)
                        return
                    }
                }
            }
        }
        for thread in threads { thread.start() }
        // SIGTERM under load: once the clients have had answers and writes (bounded wait on that).
        let loaded = Date().addingTimeInterval(10)
        while (answered.load(ordering: .relaxed) < 200 || writes.load(ordering: .relaxed) < 50) && Date() < loaded {
            usleep(1_000)
        }
        let before = answered.load(ordering: .relaxed)
        let status = harness.server.stop()
        // Every client thread ends once its connection closes (bounded wait on that event).
        let deadline = Date().addingTimeInterval(10)
        while finishedThreads.load(ordering: .relaxed) < threads.count && Date() < deadline { usleep(1_000) }
        #expect(finishedThreads.load(ordering: .relaxed) == threads.count, "client threads still running")
        print("answered \(answered.load(ordering: .relaxed)) requests (\(before) before SIGTERM)")
        #expect(status == 0, "exit status \(status); log: \(harness.server.logTail)")
        #expect(lost.load(ordering: .relaxed) == 0)
        #expect(refused.load(ordering: .relaxed) == 0, "requests covered by the GOAWAY were not answered OK")
        #expect(before > 0 && writes.load(ordering: .relaxed) > 0)
        try? FileManager.default.removeItem(at: harness.server.dataDirectory)
    }

    static func framesUntilClose(_ connection: TestConnection) throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try? connection.readFrame() { frames.append(frame) }
        return frames
    }
}
