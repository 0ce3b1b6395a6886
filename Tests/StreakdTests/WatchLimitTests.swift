import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// How Watch streams end besides CANCEL and shutdown: a slow reader, a revoked token, a deadline.
@Suite struct WatchLimitTests {
    @Test func aWatcherThatNeverReadsIsEndedAndTheServerStaysBounded() throws {
        let harness = try ServerHarness(extraArguments: ["--max-pending-output-bytes", "65536"])
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2000-01-01"))
        let watcher = try TestConnection(port: harness.server.port, timeout: .seconds(20), receiveBuffer: 4096)
        #expect(try watcher.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token).code == .ok)
        let streams = try (0..<32).map { _ in
            try watcher.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
        }
        #expect(try watcher.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
        let residentBefore = try #require(harness.server.residentKilobytes)

        // Each batch changes 2,000 days: 2,000 events of about 110 bytes for each open stream, and
        // the watcher reads none of them. The kernel takes up to 4 MiB of them (the socket buffers):
        // 20 batches offer even a single remaining stream twice that, all 32 streams some 140 MB.
        let start = day("2000-01-01")
        for batch in 0..<20 {
            let completions = try (0..<2_000).map { offset in
                let date = try start.adding(days: batch * 2_000 + offset)
                return WireCompletion.with {
                    $0.habitId = habit.id
                    $0.date = date
                }
            }
            let answer: WireBatchCompletionsResponse = try harness.call(
                .batchCompletions,
                WireBatchCompletionsRequest.with { $0.record = completions }
            )
            #expect(answer.changed == 2_000)
        }
        let residentAfter = try #require(harness.server.residentKilobytes)
        #expect(
            residentAfter - residentBefore < 16 * 1024,
            "the server grew by \(residentAfter - residentBefore) KiB for a watcher that does not read"
        )
        // Other clients keep working.
        let other = try harness.server.connect()
        #expect(try other.status(of: .getStreak, WireGetStreakRequest(), token: harness.token).code == .ok)

        // Now the watcher reads: what was sent before the bound, then every stream's end.
        var ended: [UInt32: Status] = [:]
        var messages = 0
        while ended.count < streams.count, let frame = try watcher.readFrame() {
            switch frame {
            case .endStream(let id, let status): ended[id] = status
            case .streamMessage: messages += 1
            default: break
            }
        }
        #expect(Set(ended.keys) == Set(streams), "\(ended.count) of \(streams.count) streams ended")
        #expect(ended.values.allSatisfy { $0.code == .resourceExhausted }, "\(Set(ended.values.map(\.code)))")
        #expect(messages < 20 * 2_000 * 32)
    }

    @Test func revokingAUserEndsTheirWatchStreams() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory.path
        let carol = try ServerProcess.run(["user", "add", "carol", "--data-dir", directory])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let watch = try harness.server.connect()
        #expect(try watch.status(of: .getSettings, WireGetSettingsRequest(), token: carol).code == .ok)
        let stream = try watch.sendRequest(WireMethod.watch.rawValue, message: [], token: carol)
        #expect(try watch.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
        let mine = try harness.server.connect()
        let myStream = try mine.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)

        #expect(try ServerProcess.run(["user", "revoke", "carol", "--data-dir", directory]).status == 0)
        // Nothing else happens on the connection: the server notices by itself (token TTL, 2 s).
        let frame = try #require(try watch.readFrame())
        #expect(
            frame == .endStream(id: stream, status: Status(.unauthenticated, "the bearer token is no longer valid"))
        )
        // Another user's stream stays open: a change reaches it.
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        try harness.record(habit.id, day("2024-01-02"))
        guard case .streamMessage(let id, _) = try #require(try mine.readFrame()) else {
            Issue.record("the local user's stream ended")
            return
        }
        #expect(id == myStream)
    }

    @Test func aUserHasAtMost32StreamsOpen() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        // 33 streams (registered concurrently, in any order): exactly one is refused.
        let watcher = try harness.server.connect()
        let streams = try (0..<33).map { _ in
            try watcher.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
        }
        guard case .endStream(let refused, let status) = try #require(try watcher.readFrame()) else {
            Issue.record("expected one stream to be refused")
            return
        }
        #expect(streams.contains(refused))
        #expect(status.code == .resourceExhausted && status.message.contains("at most 32 Watch streams"), "\(status)")
        #expect(try Self.endedStreams(on: watcher).isEmpty, "the other 32 stay open")
        // Another connection of the same user is refused too; cancelling one makes room.
        let other = try harness.server.connect()
        let more = try other.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
        guard case .endStream(more, let again) = try #require(try other.readFrame()) else {
            Issue.record("the 34th stream was not refused")
            return
        }
        #expect(again.code == .resourceExhausted)
        let cancelled = try #require(streams.first { $0 != refused })
        try watcher.send(.cancel(id: cancelled))
        guard case .endStream(cancelled, let end) = try #require(try watcher.readFrame()) else {
            Issue.record("expected the cancelled stream's END_STREAM")
            return
        }
        #expect(end.code == .cancelled)
        let room = try other.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
        #expect(try Self.endedStreams(on: other).isEmpty, "stream \(room) was refused after a cancel")
    }

    /// The streams that ended on `connection` during three ping round trips 100 ms apart.
    static func endedStreams(on connection: TestConnection) throws -> [UInt32] {
        var ended: [UInt32] = []
        for _ in 0..<3 {
            usleep(100_000)
            let ping = try connection.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
            while let frame = try connection.readFrame(), !frame.isResponseFrame(id: ping) {
                if case .endStream(let id, _) = frame { ended.append(id) }
            }
        }
        return ended
    }

    @Test func aWatchWithADeadlineEndsDeadlineExceeded() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let start = ContinuousClock.now
        let id = try harness.connection.sendRequest(
            WireMethod.watch.rawValue,
            message: [],
            token: harness.token,
            metadata: [MetadataEntry(key: MetadataEntry.deadlineKey, value: "300")]
        )
        let frame = try #require(try harness.connection.readFrame())
        guard case .endStream(id, let status) = frame else {
            Issue.record("expected END_STREAM, got \(frame)")
            return
        }
        #expect(status.code == .deadlineExceeded)
        #expect(ContinuousClock.now - start >= .milliseconds(250))
    }
}
