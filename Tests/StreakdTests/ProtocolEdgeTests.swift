import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The protocol's edges and the server's operational safety, against the real binary.
@Suite struct ProtocolEdgeTests {
    @Test("a write that expired before it reached the store is answered DEADLINE_EXCEEDED and not applied")
    func expiredWritesAreNotApplied() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let connection = try harness.server.connect()
        // A warm token: the writes below would otherwise wait for its check with the store.
        _ = try connection.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        let habit = try connection.call(
            .createHabit,
            WireCreateHabitRequest(name: "Read", createdOn: try CivilDate(year: 2024, month: 1, day: 1)),
            token: harness.token,
            as: WireCreateHabitResponse.self
        ).habit
        let expired = [MetadataEntry(key: MetadataEntry.deadlineKey, value: "0")]
        var ids: [UInt32] = []
        ids.append(
            try connection.sendRequest(
                WireMethod.createHabit.rawValue,
                message: WireCreateHabitRequest(name: "Twice").serializedBytes(),
                token: harness.token,
                metadata: expired
            )
        )
        ids.append(
            try connection.sendRequest(
                WireMethod.addRestPeriod.rawValue,
                message: WireAddRestPeriodRequest(
                    from: try CivilDate(year: 2024, month: 2, day: 1),
                    to: try CivilDate(year: 2024, month: 2, day: 3)
                ).serializedBytes(),
                token: harness.token,
                metadata: expired
            )
        )
        for day in 1...50 {
            let record = WireRecordCompletionRequest(
                habitId: habit?.id ?? 0,
                date: try CivilDate(year: 2024, month: 3, day: day % 28 + 1)
            )
            ids.append(
                try connection.sendRequest(
                    WireMethod.recordCompletion.rawValue,
                    message: record.serializedBytes(),
                    token: harness.token,
                    metadata: expired
                )
            )
        }
        for id in ids {
            let (status, _) = try connection.awaitResponse(id)
            #expect(status.code == .deadlineExceeded, "\(id): \(status)")
        }
        let habits = try connection.call(
            .listHabits,
            WireListHabitsRequest(includeArchived: true),
            token: harness.token,
            as: WireListHabitsResponse.self
        ).habits
        #expect(habits.map(\.name) == ["Read"])
        let rests = try connection.call(
            .listRestPeriods,
            WireListRestPeriodsRequest(),
            token: harness.token,
            as: WireListRestPeriodsResponse.self
        )
        #expect(rests.restPeriods.isEmpty)
        let heatmap = try connection.call(
            .getHeatmap,
            WireGetHeatmapRequest(
                from: try CivilDate(year: 2024, month: 3, day: 1),
                to: try CivilDate(year: 2024, month: 3, day: 31)
            ),
            token: harness.token,
            as: WireGetHeatmapResponse.self
        )
        let done = heatmap.heatmap?.weeks.flatMap(\.cells).map(\.completed).reduce(0, +)
        #expect(done == 0, "completions stored by expired writes: \(String(describing: done))")
    }

    @Test func aReusedInFlightIdEndsTheConnectionAndTheFirstRequestKeepsItsOneAnswer() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let connection = try harness.server.connect()
        _ = try connection.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        // A Watch stays in flight; a second request on its id is a connection error.
        let id = try connection.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
        try connection.sendRequest(WireMethod.ping.rawValue, message: [], token: nil, id: id)
        var sawGoAway = false
        var answersForID = 0
        while let frame = try connection.readFrame() {
            switch frame {
            case .goAway(let last, let status):
                sawGoAway = true
                #expect(last == id && status.code == .invalidArgument && status.message.contains("already in flight"))
            case .response(let answered, _, _) where answered == id, .endStream(let answered, _) where answered == id:
                answersForID += 1
            default:
                break
            }
        }
        #expect(sawGoAway, "no GOAWAY before the close")
        #expect(answersForID == 1, "the id got \(answersForID) answers")
        // The server carries on.
        #expect(try harness.server.connect().status(of: .ping, WirePingRequest(), token: nil).code == .ok)
    }

    @Test func stringsWithANulAreRefusedEverywhere() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        // Hand-encoded: the Swift encoder goes through protobuf-c's C strings and would cut at the NUL.
        let create = try harness.connection.rawCall(
            WireMethod.createHabit.rawValue,
            message: [0x0A, 0x03, 0x61, 0x00, 0x62],  // name = "a\0b"
            token: harness.token
        ).status
        #expect(create.code == .invalidArgument && create.message.contains("U+0000"), "\(create.message)")
        let period = WireAddRestPeriodRequest(from: day("2024-01-01"), to: day("2024-01-02")).serializedBytes()
        let note = try harness.connection.rawCall(
            WireMethod.addRestPeriod.rawValue,
            message: period + [0x1A, 0x02, 0x78, 0x00],  // note = "x\0"
            token: harness.token
        ).status
        #expect(note.code == .invalidArgument && note.message.contains("note"), "\(note.message)")
        // Nested: a habit name inside an ImportData request.
        let nested = try harness.connection.rawCall(
            WireMethod.importData.rawValue,
            message: [0x0A, 0x03, 0x0A, 0x01, 0x00],  // habits[0].name = "\0"
            token: harness.token
        ).status
        #expect(nested.code == .invalidArgument && nested.message.contains("name"), "\(nested.message)")
        let list: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest(includeArchived: true))
        #expect(list.habits.isEmpty, "something was stored: \(list.habits.map(\.name))")
    }

    @Test func namesAreMeasuredInUnicodeScalars() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        // 200 family emoji: 200 grapheme clusters, but 1,400 scalars.
        let family = String(repeating: "👩‍👩‍👧‍👦", count: 29)
        let tooLong = try harness.connection.status(
            of: .createHabit,
            WireCreateHabitRequest(name: family, createdOn: day("2024-01-01")),
            token: harness.token
        )
        #expect(tooLong.code == .invalidArgument && tooLong.message.contains("Unicode scalars"), "\(tooLong.message)")
        let exact = String(repeating: "é", count: 200)
        let fits: WireCreateHabitResponse = try harness.call(
            .createHabit,
            WireCreateHabitRequest(name: exact, createdOn: day("2024-01-01"))
        )
        #expect(fits.habit?.name == exact)
    }

    @Test func theDataDirectoryIsPrivateAndFixedOnStart() throws {
        let directory = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o755)
        let stale = directory.appendingPathComponent("streakd.sqlite3-old")
        try Data().write(to: stale)
        chmod(stale.path, 0o644)
        let server = try ServerProcess.start(dataDirectory: directory)
        defer { server.stop() }
        var info = stat()
        #expect(stat(directory.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            #expect(stat(directory.appendingPathComponent(name).path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(name) is \(String(info.st_mode & 0o777, radix: 8))")
        }
    }

    /// A data directory reached through a symbolic link is the directory the link points to: it is
    /// made 0700 and its files 0600, and the log says so, as for the directory itself. (lstat saw
    /// the link and left the directory 0755, silently.) A link inside it is not followed.
    @Test func aDataDirectoryThroughALinkIsMadePrivate() throws {
        let parent = ServerProcess.temporaryDirectory(prefix: "streakd-linked")
        let real = parent.appendingPathComponent("real")
        let link = parent.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
        chmod(real.path, 0o755)
        try Data().write(to: real.appendingPathComponent("streakd.sqlite3-old"))
        chmod(real.appendingPathComponent("streakd.sqlite3-old").path, 0o644)
        let outside = parent.appendingPathComponent("outside.txt")
        try Data().write(to: outside)
        chmod(outside.path, 0o644)
        #expect(symlink(outside.path, real.appendingPathComponent("outside-link").path) == 0)
        #expect(symlink("real", link.path) == 0)

        let server = try ServerProcess.start(dataDirectory: link)
        defer { server.stop() }
        var info = stat()
        #expect(lstat(link.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link was replaced")
        #expect(
            stat(real.path, &info) == 0 && info.st_mode & 0o777 == 0o700,
            "\(String(info.st_mode & 0o777, radix: 8))"
        )
        for name in try FileManager.default.contentsOfDirectory(atPath: real.path) where name != "outside-link" {
            #expect(lstat(real.appendingPathComponent(name).path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(name) is \(String(info.st_mode & 0o777, radix: 8))")
        }
        #expect(stat(outside.path, &info) == 0 && info.st_mode & 0o777 == 0o644, "a link inside was followed")
        #expect(server.log.contains("made the data directory private"), "\(server.logTail)")
        #expect(server.log.contains("streakd.sqlite3-old"), "\(server.logTail)")
    }

    @Test func atTheConnectionLimitTheOldestIdleConnectionMakesRoom() throws {
        let server = try ServerProcess.start(extraArguments: ["--max-connections", "3"])
        defer { server.stop() }
        // Three connections; the first only pings, the second has a Watch in flight (busy).
        let pinger = try server.connect()
        _ = try pinger.status(of: .ping, WirePingRequest(), token: nil)
        let busy = try server.connect()
        _ = try busy.status(of: .getSettings, WireGetSettingsRequest(), token: server.token)
        _ = try busy.sendRequest(WireMethod.watch.rawValue, message: [], token: server.token)
        let third = try server.connect()
        _ = try third.status(of: .ping, WirePingRequest(), token: nil)
        try pinger.send(.ping(1))  // a PING frame is not a request
        // A fourth: the pinger (oldest request, nothing in flight) is asked to close.
        let fourth = try server.connect()
        #expect(try fourth.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
        var closedForRoom = false
        while let frame = try pinger.readFrame() {
            if case .goAway(_, let status) = frame, status.code == .unavailable, status.message.contains("make room") {
                closedForRoom = true
            }
        }
        #expect(closedForRoom)
        #expect(try busy.status(of: .ping, WirePingRequest(), token: nil).code == .ok, "the busy connection was closed")
    }

    @Test func oneAddressCannotTakeEverySlot() throws {
        let server = try ServerProcess.start(extraArguments: ["--max-connections-per-address", "2"])
        defer { server.stop() }
        let first = try server.connect()
        let second = try server.connect()
        _ = try first.status(of: .ping, WirePingRequest(), token: nil)
        _ = try second.status(of: .ping, WirePingRequest(), token: nil)
        let third = try server.connect()
        var refusal: Status?
        while let frame = try third.readFrame() {
            if case .goAway(_, let status) = frame { refusal = status }
        }
        #expect(
            refusal?.code == .resourceExhausted && refusal?.message.contains("per address") == true,
            "\(String(describing: refusal))"
        )
        #expect(try first.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
        // The operator sees it too: one line (a flood of refusals is one line per 10 s).
        #expect(server.waitForLog("refused a new connection"), "\(server.logTail)")
        #expect(server.logTail.contains("too many connections from 127.0.0.1"), "\(server.logTail)")
    }
}

/// A client that pipelines big answers and never reads holds about `--max-pending-output-bytes`
/// of the server's memory, not requests-in-flight times an answer.
@Suite struct OutputBoundTests {
    static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw TestSupportError("no VmRSS for \(pid)") }
        return kilobytes * 1024
    }

    /// The process's user plus system CPU time, in clock ticks.
    static func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let closing = stat.lastIndex(of: ")") else { throw TestSupportError("no stat for \(pid)") }
        // After "pid (comm)": utime and stime are the 12th and 13th fields.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw TestSupportError("no CPU times for \(pid)")
        }
        return user + system
    }

    @Test func aReaderThatNeverReadsHoldsAboutTheBound() throws {
        let harness = try ServerHarness(extraArguments: ["--max-pending-output-bytes", "1048576"])
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2005-01-01"))
        try harness.record(habit.id, day("2005-01-03"))
        // A 20-year heatmap with a label per cell: about 400 KB an answer.
        var request = WireGetHeatmapRequest(from: day("2005-01-01"), to: day("2024-12-31"))
        request.accessibilityLabels = true
        let sample: WireGetHeatmapResponse = try harness.call(.getHeatmap, request)
        let answerSize = sample.serializedBytes().count
        #expect(answerSize > 300_000, "the answer is only \(answerSize) bytes")
        // The same request again is cached; vary the range by a day so that each is computed.
        let before = try Self.residentBytes(harness.server.pid)
        let hog = try harness.server.connect()
        for index in 0..<128 {
            request.to = try day("2024-12-31").adding(days: -index)
            try hog.sendRequest(
                WireMethod.getHeatmap.rawValue,
                message: request.serializedBytes(),
                token: harness.token
            )
        }
        // Let the server do what it will, then measure: another client is answered meanwhile.
        #expect(try harness.status(.getStreak, WireGetStreakRequest()).code == .ok)
        Thread.sleep(forTimeInterval: 1.0)
        #expect(try harness.status(.getStreak, WireGetStreakRequest()).code == .ok)
        let growth = try Self.residentBytes(harness.server.pid) - before
        // Unbounded, 128 answers of ~400 KB would be about 50 MB; the bound is 1 MiB plus one
        // answer being computed, plus what the kernel's socket buffers and malloc keep.
        print("resident growth with a non-reading pipeliner: \(growth / 1024) KiB (answers of \(answerSize) bytes)")
        #expect(growth < 16 << 20, "the server grew by \(growth / 1024) KiB")
    }
}

extension OutputBoundTests {
    /// Several non-readers at once: each holds about the bound (answers stop starting while its
    /// unsent output is at the bound), and the loop they share still answers another client.
    @Test func otherClientsAreAnsweredWhileSeveralPipelinersNeverRead() throws {
        let bound = 512 << 10
        let harness = try ServerHarness(extraArguments: ["--max-pending-output-bytes", "\(bound)"])
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2005-01-01"))
        try harness.record(habit.id, day("2005-01-03"))
        let normal = try harness.server.connect(timeout: .seconds(10))
        #expect(try normal.status(of: .getStreak, WireGetStreakRequest(), token: harness.token).code == .ok)
        let before = try Self.residentBytes(harness.server.pid)
        // Three connections each pipeline the in-flight maximum of 20-year heatmaps (about 400 KB
        // an answer, each range a day apart so that every one is computed) and never read.
        let hogCount = 3
        var hogs: [TestConnection] = []
        for hog in 0..<hogCount {
            let connection = try harness.server.connect()
            var request = WireGetHeatmapRequest(from: day("2005-01-01"), to: day("2024-12-31"))
            request.accessibilityLabels = true
            for index in 0..<128 {
                request.to = try day("2024-12-31").adding(days: -(hog * 128 + index))
                try connection.sendRequest(
                    WireMethod.getHeatmap.rawValue,
                    message: request.serializedBytes(),
                    token: harness.token
                )
            }
            hogs.append(connection)
        }
        // The other connection's small requests keep being answered (each read waits up to 10 s).
        for _ in 0..<20 {
            #expect(try normal.status(of: .getStreak, WireGetStreakRequest(), token: harness.token).code == .ok)
        }
        // Resident memory, sampled while the server does what it will, until its CPU time stops
        // growing (it computes nothing more) or a minute passed: within the hogs' bounds (plus one
        // answer each that may start under the bound) and a constant for malloc's slack and the
        // response cache (the old rule let each hog hold every answer: over 100 MB here).
        var largest = 0
        var lastTicks = try Self.cpuTicks(harness.server.pid)
        var quietSamples = 0
        let giveUp = Date().addingTimeInterval(60)
        while quietSamples < 3 && Date() < giveUp {
            Thread.sleep(forTimeInterval: 0.3)
            largest = max(largest, try Self.residentBytes(harness.server.pid) - before)
            let ticks = try Self.cpuTicks(harness.server.pid)
            quietSamples = ticks - lastTicks < 3 ? quietSamples + 1 : 0
            lastTicks = ticks
        }
        print(
            "resident growth with \(hogCount) non-reading pipeliners: \(largest / 1024) KiB (bound \(bound / 1024) KiB each)"
        )
        #expect(largest < hogCount * (bound + 512 * 1024) + (32 << 20), "the server grew by \(largest / 1024) KiB")
        #expect(try normal.status(of: .getStreak, WireGetStreakRequest(), token: harness.token).code == .ok)
        withExtendedLifetime(hogs) {}
    }

    @Test func aWatchOpenedWithAnUncachedTokenDoesNotHoldBackTheRequestsAfterIt() throws {
        let harness = try ServerHarness(extraArguments: ["--max-pending-output-bytes", "65536"])
        defer { harness.finish() }
        let carol = try ServerProcess.run(["user", "add", "carol", "--data-dir", harness.server.dataDirectory.path])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let connection = try harness.server.connect()
        // The Watch is registered once the token is looked up, off the connection's queue.
        for _ in 0..<4 { try connection.sendRequest(WireMethod.watch.rawValue, message: [], token: carol) }
        #expect(try connection.status(of: .getStreak, WireGetStreakRequest(), token: carol).code == .ok)
    }
}
