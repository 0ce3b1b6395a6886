import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The heap allocations of a durable write, counted in a real `streakd` by
/// `scripts/malloc-count.c` (the library `scripts/bench` preloads): a guard with a generous
/// ceiling, so that allocations on the write path cannot creep back unnoticed. It counts, it
/// does not time.
@Suite(.serialized) struct WriteAllocationTests {
    /// Allocations per RecordCompletion/RemoveCompletion in the debug build the tests run, one
    /// write at a time (each its own group commit): 102 when this guard was set, 113 before the
    /// last allocations were taken off the write path (a release build: 30.5, and 47.5 at
    /// 4b74496); 71.5 on 2026-11-28 (a release build under load: 17.4). The ceiling leaves a
    /// quarter for toolchain changes, not for new allocations.
    static let ceiling = 90.0
    static let writes = 400

    @Test func durableWritesStayUnderTheAllocationCeiling() throws {
        let work = ServerProcess.temporaryDirectory(prefix: "streakd-allocations")
        defer { try? FileManager.default.removeItem(at: work) }
        let (server, counter) = try Self.startCountedServer(in: work)
        defer { server.stop() }
        let token = try #require(server.token)
        let connection = try server.connect()
        defer { connection.close() }
        let created: WireCreateHabitResponse = try connection.call(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = "counted"
                $0.createdOn = day("2020-01-01")
            },
            token: token
        )
        let habit = try #require(created.habit).id
        // A warm-up: the user is loaded and the statements prepared before counting.
        try write(habit, times: 20, on: connection, token: token)
        let before = try #require(Self.count(counter))
        try write(habit, times: Self.writes, on: connection, token: token)
        let after = try #require(Self.count(counter))
        let perWrite = Double(after - before) / Double(Self.writes)
        print("allocations per durable write (debug build, one at a time): \(perWrite)")
        #expect(perWrite > 0, "the counting library did not count (is it preloaded?)")
        #expect(perWrite < Self.ceiling, "\(perWrite) allocations per write, ceiling \(Self.ceiling)")
    }

    /// The benchmark's columns come from `streak-load run`'s RESULT line: against a server that
    /// counts, its allocations, CPU and user-mode CPU per request are numbers, and plausible ones.
    @Test("streak-load reports the server's allocations, CPU and user-mode CPU per request")
    func loadGeneratorReportsWhatTheServerSpent() throws {
        let work = ServerProcess.temporaryDirectory(prefix: "streakd-load-columns")
        defer { try? FileManager.default.removeItem(at: work) }
        let (server, counter) = try Self.startCountedServer(in: work)
        defer { server.stop() }
        let tokens = work.appendingPathComponent("tokens").path
        try (try #require(server.token) + "\n").write(toFile: tokens, atomically: true, encoding: .utf8)
        let address = "127.0.0.1:\(server.port)"
        let load = { (arguments: [String]) throws -> String in
            let run = try ServerProcess.run(arguments, executable: ServerProcess.loadBinaryURL, timeout: .seconds(60))
            guard run.status == 0 else { throw TestSupportError("streak-load failed: \(run.error)") }
            return run.output
        }
        _ = try load(["setup", "--server", address, "--tokens-file", tokens])
        let output = try load([
            "run", "record", "--server", address, "--tokens-file", tokens, "--server-pid", "\(server.pid)",
            "--alloc-count-file", counter, "--connections", "2", "--warmup", "0.2", "--duration", "1",
        ])
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("RESULT ") }, "\(output)")
        var fields: [String: Double] = [:]
        for field in line.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        let requests = try #require(fields["requests"], "\(line)")
        let allocations = try #require(fields["allocs"], "\(line)")
        let cpu = try #require(fields["cpu_us"], "\(line)")
        let user = try #require(fields["user_us"], "\(line)")
        #expect(requests > 0 && fields["errors"] == 0, "\(line)")
        // A debug build allocates about a hundred times per write (the test above).
        #expect(allocations > 10 && allocations < 1_000, "\(line)")
        // CPU time is counted in ticks of 10 ms: over a second of writes, some.
        #expect(cpu > 0 && user >= 0 && user <= cpu, "\(line)")
    }

    /// Records and removes the same day in turn, like the benchmark's write scenario.
    private func write(_ habit: Int64, times: Int, on connection: TestConnection, token: String) throws {
        for index in 0..<times {
            let status: Status
            if index % 2 == 0 {
                status = try connection.status(
                    of: .recordCompletion,
                    WireRecordCompletionRequest.with {
                        $0.habitId = habit
                        $0.date = day("2020-06-01")
                        $0.asOf = day("2020-06-30")
                    },
                    token: token
                )
            } else {
                status = try connection.status(
                    of: .removeCompletion,
                    WireRemoveCompletionRequest.with {
                        $0.habitId = habit
                        $0.date = day("2020-06-01")
                        $0.asOf = day("2020-06-30")
                    },
                    token: token
                )
            }
            try #require(status.code == .ok, "\(status)")
        }
    }

    /// A `streakd` with the counting library preloaded, its data and the library under `work`.
    /// - Returns: the server and the path of its allocation counter.
    private static func startCountedServer(in work: URL) throws -> (server: ServerProcess, counter: String) {
        let library = work.appendingPathComponent("malloc-count.so").path
        let counter = work.appendingPathComponent("malloc.count").path
        try buildCounter(into: library)
        let data = work.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let server = try ServerProcess.start(
            dataDirectory: data,
            environment: ["LD_PRELOAD": library, "STREAKD_MALLOC_COUNT_FILE": counter]
        )
        return (server, counter)
    }

    /// Compiles scripts/malloc-count.c with the system's C compiler.
    private static func buildCounter(into library: String) throws {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/malloc-count.c").path
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-O2", "-shared", "-fPIC", "-o", library, source]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else {
            throw TestSupportError("cc could not build \(source) (status \(compiler.terminationStatus))")
        }
    }

    /// The counter's current value (the first 8 bytes of the file, little-endian).
    private static func count(_ path: String) -> UInt64? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var value: UInt64 = 0
        guard pread(descriptor, &value, 8, 0) == 8 else { return nil }
        return UInt64(littleEndian: value)
    }
}
