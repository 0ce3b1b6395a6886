import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

/// Requests that need the store or real computation wait for a few workers; users take turns on
/// them, so one user's pipelined costly requests cannot hold another user's back.
@Suite struct SlowPathFairnessTests {
    /// A BuildHeatmap that takes the server real work: 20 years of daily completions for 50
    /// habits, with accessibility labels (365 KB: 22 of them fit in what the server reads ahead
    /// of one connection's answers).
    static func costlyBuild() throws -> [UInt8] {
        let first = day("2000-01-01")
        let last = try first.adding(days: 7_300)
        var request = WireBuildHeatmapRequest()
        request.asOf = last
        request.from = first
        request.to = last
        request.accessibilityLabels = true
        request.habits = (1...50).map { WireHabit(id: Int64($0), name: "h\($0)", createdOn: first) }
        request.completionDays = (1...50).map {
            WireHabitDays(habitId: Int64($0), dayNumbers: first.dayNumber...last.dayNumber)
        }
        return request.serializedBytes()
    }

    /// `base` with its own `min_percent`, so that no two requests share an answer from the
    /// builder cache (a field repeated later in a message overrides the earlier one).
    static func variant(_ base: [UInt8], _ index: Int) -> [UInt8] {
        var threshold = WireBuildHeatmapRequest()
        threshold.minPercent = Int32(1 + index)
        return base + threshold.serializedBytes()
    }

    @Test func anotherUsersRequestIsServedInTurnNotAfterTheQueue() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let bob = try ServerProcess.run(["user", "add", "bob", "--data-dir", harness.server.dataDirectory.path])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let alice = try harness.server.connect()
        _ = try alice.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        let count = 24
        let base = try Self.costlyBuild()
        let ids = (0..<count).map { _ in alice.makeRequestID() }
        // Alice's answers, as they arrive.
        let arrivals = Mutex<[ContinuousClock.Instant]>([])
        let failures = Mutex<[String]>([])
        let reader = Thread {
            for _ in ids {
                do {
                    guard case .response(let id, let status, _)? = try alice.readFrame() else {
                        failures.withLock { $0.append("the connection ended") }
                        return
                    }
                    if status.code != .ok { failures.withLock { $0.append("\(id): \(status)") } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    return
                }
                arrivals.withLock { $0.append(.now) }
            }
        }
        reader.start()
        // From a thread of its own: the server stops reading Alice's connection at 8 MiB.
        let token = harness.token
        let sender = Thread {
            for (index, id) in ids.enumerated() {
                do {
                    try alice.sendRequest(
                        WireMethod.buildHeatmap.rawValue,
                        message: Self.variant(base, index),
                        token: token,
                        id: id
                    )
                } catch {
                    failures.withLock { $0.append("sending: \(error)") }
                    return
                }
            }
        }
        sender.start()
        // Once Alice's builds are being computed, Bob connects with a token the server has not
        // checked yet: his request needs the slow path too (the token's check, his user's load).
        #expect(waitUntil(seconds: 60) { arrivals.withLock { !$0.isEmpty } }, "no build was answered")
        let asked = ContinuousClock.now
        let bobs = try harness.server.connect()
        defer { bobs.close() }
        let settings = try bobs.call(
            .getSettings,
            WireGetSettingsRequest(),
            token: bob,
            as: WireGetSettingsResponse.self
        )
        let answered = ContinuousClock.now
        #expect(settings.settings != nil)
        #expect(waitUntil(seconds: 120) { arrivals.withLock { $0.count } == count || !failures.withLock(\.isEmpty) })
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        // Served first come, first served, Bob would wait for every build queued before him (about
        // 20); in turn he waits for those being computed (two workers a core) and at most one more.
        let meanwhile = arrivals.withLock { $0.filter { $0 > asked && $0 < answered }.count }
        let before = arrivals.withLock { $0.filter { $0 <= asked }.count }
        print(
            "Bob's first request waited \(answered - asked), for \(meanwhile) of Alice's builds (\(before) answered before)"
        )
        #expect(
            meanwhile <= 8,
            "\(meanwhile) of Alice's \(count) builds were answered while Bob waited (\(before) before he asked)"
        )
        alice.close()
    }
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass.
private func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
