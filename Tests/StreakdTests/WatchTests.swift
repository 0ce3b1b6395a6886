import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// The server-streaming Watch.
@Suite struct WatchTests {
    @Test func watcherSeesEachCompletionChange() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        let watch = try harness.server.connect()
        // A first call lets the server cache the token, so the Watch below registers inline;
        // the Ping after it is answered only once the Watch was handled.
        _ = try watch.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        let streamID = try watch.sendRequest(
            WireMethod.watch.rawValue,
            message: WireWatchRequest.with { $0.asOf = day("2024-01-10") }.serializedBytes(),
            token: harness.token
        )
        _ = try watch.status(of: .ping, WirePingRequest(), token: nil)

        for (index, date) in [day("2024-01-09"), day("2024-01-10")].enumerated() {
            let start = ContinuousClock.now
            try harness.record(habit.id, date)
            let acknowledged = ContinuousClock.now
            // Read from the moment the OK arrived: an event that came first is already buffered (0).
            let frame = try #require(try watch.readFrame())
            let arrived = ContinuousClock.now
            guard case .streamMessage(let id, let bytes) = frame else {
                Issue.record("expected a stream message, got \(frame)")
                return
            }
            #expect(id == streamID)
            let event = try WireWatchEvent(serializedBytes: bytes)
            #expect(event.day?.date == date && event.day?.completed == 1)
            #expect(event.streak?.asOf == day("2024-01-10") && event.streak?.current == Int32(index + 1))
            // How soon the event follows the acknowledgement is a latency, measured, not asserted
            // (timing targets live in the benchmark, docs/PERFORMANCE.md); the order is asserted above.
            let delay = arrived - acknowledged
            print("watch event \(index): \(delay) after the acknowledgement, \(arrived - start) after the request")
        }

        // Recording again changes nothing: no event. Removing does.
        try harness.record(habit.id, day("2024-01-10"))
        let _: WireCompletionResponse = try harness.call(
            .removeCompletion,
            WireRemoveCompletionRequest.with {
                $0.habitId = habit.id
                $0.date = day("2024-01-10")
            }
        )
        let frame = try #require(try watch.readFrame())
        guard case .streamMessage(_, let bytes) = frame else {
            Issue.record("expected a stream message, got \(frame)")
            return
        }
        let event = try WireWatchEvent(serializedBytes: bytes)
        #expect(event.day?.date == day("2024-01-10") && event.day?.completed == 0)

        // Cancel: the stream ends with CANCELLED.
        try watch.send(.cancel(id: streamID))
        let end = try #require(try watch.readFrame())
        guard case .endStream(let endID, let status) = end else {
            Issue.record("expected END_STREAM, got \(end)")
            return
        }
        #expect(endID == streamID && status.code == .cancelled)
    }

    @Test func shutdownEndsOpenStreamsAndExitsZero() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let watch = try harness.server.connect()
        _ = try watch.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        let id = try watch.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
        _ = try watch.status(of: .ping, WirePingRequest(), token: nil)
        let start = ContinuousClock.now
        let status = harness.server.stop()
        #expect(status == 0, "exit status \(status); log: \(harness.server.logTail)")
        print("shutdown with an open watch took \(ContinuousClock.now - start)")
        var ended: Status?
        while let frame = try? watch.readFrame() {
            if case .endStream(let endID, let endStatus) = frame, endID == id { ended = endStatus }
        }
        #expect(ended?.code == .unavailable)
    }

    @Test func watchWithoutTokenEndsTheStreamUnauthenticated() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let id = try harness.connection.sendRequest(WireMethod.watch.rawValue, message: [], token: "stk_wrong")
        let frame = try #require(try harness.connection.readFrame())
        guard case .endStream(let endID, let status) = frame else {
            Issue.record("expected END_STREAM, got \(frame)")
            return
        }
        #expect(endID == id && status.code == .unauthenticated)
    }

    @Test func otherUsersChangesAreNotPushed() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let bob = try ServerProcess.run(["user", "add", "bob", "--data-dir", harness.server.dataDirectory.path])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        let watch = try harness.server.connect()
        _ = try watch.status(of: .getSettings, WireGetSettingsRequest(), token: bob)
        try watch.sendRequest(WireMethod.watch.rawValue, message: [], token: bob)
        let pingID = try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
        _ = try watch.awaitResponse(pingID)
        try harness.record(habit.id, day("2024-01-02"))
        // A ping after the write: its answer must come first, with no stream message before it.
        let second = try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
        let next = try #require(try watch.readFrame())
        #expect(next.isResponseFrame(id: second))
    }
}

extension WatchTests {
    @Test func habitsCreatedArchivedAndDeletedSendTheirDays() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let now: WireGetStreakResponse = try harness.call(.getStreak, WireGetStreakRequest())
        let today = try #require(now.streak?.asOf)
        let watch = try harness.server.connect()
        _ = try watch.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        let streamID = try watch.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
        _ = try watch.status(of: .ping, WirePingRequest(), token: nil)
        func events(_ count: Int) throws -> [WireDayRecord] {
            try (0..<count).map { _ in
                let frame = try #require(try watch.readFrame())
                guard case .streamMessage(streamID, let bytes) = frame else {
                    throw TestSupportError("expected a stream message, got \(frame)")
                }
                return try #require(try WireWatchEvent(serializedBytes: bytes).day)
            }
        }

        // Created three days ago: the habit is active on four days through today.
        let habit = try harness.createHabit("Walk", on: try today.adding(days: -3))
        let created = try events(4)
        #expect(created.map(\.date) == (-3...0).map { try? today.adding(days: $0) })
        #expect(created.allSatisfy { $0.active == 1 && $0.due == 1 })

        // Archived from yesterday: yesterday and today no longer count it. A rename changes no
        // day: the next frame is the answer to a ping sent after it.
        let _: WireArchiveHabitResponse = try harness.call(
            .archiveHabit,
            WireArchiveHabitRequest.with {
                $0.habitId = habit.id
                $0.archivedOn = try? today.adding(days: -1)
            }
        )
        let archived = try events(2)
        #expect(archived.map(\.date) == (-1...0).map { try? today.adding(days: $0) })
        #expect(archived.allSatisfy { $0.active == 0 })
        let _: WireRenameHabitResponse = try harness.call(
            .renameHabit,
            WireRenameHabitRequest.with {
                $0.habitId = habit.id
                $0.name = "Stroll"
            }
        )
        let ping = try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
        #expect(try #require(try watch.readFrame()).isResponseFrame(id: ping))

        // Created from a later day than today: no day up to today changes, no event.
        let later = try harness.createHabit("Later", on: try today.adding(days: 5))
        let after = try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
        #expect(try #require(try watch.readFrame()).isResponseFrame(id: after))

        // Deleted: the two days it was active on lose it; the later habit was active on none.
        for id in [habit.id, later.id] {
            let _: WireDeleteHabitResponse = try harness.call(
                .deleteHabit,
                WireDeleteHabitRequest.with { $0.habitId = id }
            )
        }
        let deleted = try events(2)
        #expect(deleted.map(\.date) == (-3 ... -2).map { try? today.adding(days: $0) })
        #expect(deleted.allSatisfy { $0.active == 0 })
        let last = try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
        #expect(try #require(try watch.readFrame()).isResponseFrame(id: last))
    }
}

extension Frame {
    func isResponseFrame(id: UInt32) -> Bool {
        if case .response(let frameID, _, _) = self { return frameID == id }
        return false
    }
}
