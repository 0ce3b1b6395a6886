import Foundation
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Flags and environment variables of `streakd`, and the limits they set.
@Suite struct ServerOptionsTests {
    @Test func bindsLoopbackByDefault() throws {
        let server = try ServerProcess.start()
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        #expect(server.host == "127.0.0.1")
    }

    @Test("the server maps no swift-corelibs-foundation, and its own threads carry their names")
    func lightweightProcess() throws {
        let server = try ServerProcess.start()
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        // /proc files say they are empty: read them to their end, not by their size.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(server.pid)/maps"))
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        // FoundationEssentials and FoundationInternationalization are fine; libFoundation.so is
        // about 4 MiB of resident pages in every process that loads it.
        #expect(!maps.contains("/libFoundation.so"))
        #expect(maps.contains("/libFoundationEssentials.so"))
        // Each thread names itself once it runs: wait for them on a busy machine.
        var names: Set<String> = []
        let deadline = ContinuousClock.now + .seconds(20)
        repeat {
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task")
            names = Set(
                tasks.compactMap { try? String(contentsOfFile: "/proc/\(server.pid)/task/\($0)/comm", encoding: .utf8) }
                    .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            )
            if names.isSuperset(of: ["streakd.loop.0", "streakd-storage"]) { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        #expect(names.contains("streakd.loop.0"), "\(names)")
        #expect(names.contains("streakd-storage"), "\(names)")
    }

    @Test func portAndDataDirectoryFromTheEnvironment() throws {
        let port = try Self.freePort()
        let directory = ServerProcess.temporaryDirectory().appendingPathComponent("from-env")
        let server = try ServerProcess.start(
            dataDirectory: directory.deletingLastPathComponent(),
            environment: ["STREAKD_PORT": "\(port)", "STREAKD_DATA_DIR": directory.path],
            passDefaults: false
        )
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
        }
        #expect(server.port == port)
        let token = try String(contentsOf: directory.appendingPathComponent("token"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try server.connect().status(of: .listHabits, WireListHabitsRequest(), token: token).code == .ok)
    }

    @Test(arguments: [
        ["--idle-timeout", "inf"], ["--handshake-timeout", "1e300"], ["--shutdown-grace", "nan"],
        ["--idle-timeout", "-1"], ["--shutdown-grace", "1e20"], ["--event-loops", "0"], ["--event-loops", "257"],
    ])
    func outOfRangeValuesAreUsageErrors(arguments: [String]) throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ServerProcess.run(
            ["--port", "0", "--data-dir", directory.path] + arguments,
            timeout: .seconds(30)
        )
        #expect(result.status == 64, "\(arguments): status \(result.status), \(result.error)")
        #expect(result.error.contains(arguments[0]), "\(result.error)")
    }

    @Test("an unreachable PostgreSQL database is a clear error, for the server and the admin commands")
    func unreachableDatabase() throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Port 1 on loopback: nothing listens there.
        let url = "postgresql://streakd@127.0.0.1:1/streakd"
        for arguments in [["--port", "0"], ["user", "list"]] {
            let result = try ServerProcess.run(arguments + ["--data-dir", directory.path, "--database-url", url])
            #expect(result.status == 1, "\(arguments): status \(result.status)")
            #expect(result.error.contains("cannot connect to PostgreSQL"), "\(result.error)")
            #expect(!result.output.contains("listening"))
        }
    }

    @Test("a data directory whose database file is not a database, or not streakd's, is refused by name")
    func foreignDatabaseFileIsRefused() throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("streakd.sqlite3").path
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: path))
        for arguments in [["--port", "0"], ["user", "list"], ["user", "add", "someone"]] {
            let result = try ServerProcess.run(arguments + ["--data-dir", directory.path], timeout: .seconds(30))
            #expect(result.status == 1, "\(arguments): status \(result.status)")
            #expect(result.error.contains("\(path) is not a database at all"), "\(arguments): \(result.error)")
            #expect(result.error.contains("move it away"), "\(result.error)")
            #expect(result.output.isEmpty, "\(arguments): \(result.output)")
        }
    }

    @Test("on the embedded store, libpq (and the ~5 MiB it links) is never loaded")
    func sqliteServerDoesNotLoadLibpq() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        _ = try harness.status(.listHabits, WireListHabitsRequest())
        let maps = try ServerProcess.memoryMaps(of: harness.server.pid)
        #expect(maps.contains("libsqlite3"))
        #expect(!maps.contains("libpq"))
    }

    @Test func oneEventLoopServesEveryConnection() throws {
        let harness = try ServerHarness(extraArguments: ["--event-loops", "1"])
        defer { harness.finish() }
        let others = try (0..<5).map { _ in try harness.server.connect() }
        for connection in others {
            #expect(try connection.status(of: .listHabits, WireListHabitsRequest(), token: harness.token).code == .ok)
        }
        #expect(try harness.status(.listHabits, WireListHabitsRequest()).code == .ok)
    }

    @Test func connectionsOverTheLimitAreRefusedWhenAllAreBusyAndTheOthersWork() throws {
        let harness = try ServerHarness(extraArguments: ["--max-connections", "2"])
        defer { harness.finish() }
        let second = try harness.server.connect()
        #expect(try second.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
        // Both connections have something in flight (a Watch), so neither can make room.
        for connection in [harness.connection, second] {
            _ = try connection.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
            try connection.sendRequest(WireMethod.watch.rawValue, message: [], token: harness.token)
            _ = try connection.status(of: .ping, WirePingRequest(), token: nil)
        }

        // Refused: GOAWAY RESOURCE_EXHAUSTED (or nothing at all), then closed, not kept waiting.
        let third = try TestConnection(port: harness.server.port, timeout: .seconds(10), exchangePreface: false)
        try? third.sendRaw(Preface.bytes)
        var frames: [Frame] = []
        var closed = false
        do {
            try third.readPreface()
            while let frame = try third.readFrame() { frames.append(frame) }
            closed = true
        } catch {
            closed = "\(error)".contains("closed")  // closed during the preface, not a timeout
        }
        let onlyGoAway = frames.allSatisfy { frame in
            if case .goAway(0, let status) = frame { status.code == .resourceExhausted } else { false }
        }
        #expect(closed && onlyGoAway, "the third connection got \(frames), closed: \(closed)")

        #expect(try harness.status(.listHabits, WireListHabitsRequest()).code == .ok)
        #expect(try second.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
        // Closing one makes room for another (once the server noticed the close).
        second.close()
        var fresh: Status?
        for _ in 0..<50 where fresh?.code != .ok {
            if let connection = try? harness.server.connect(timeout: .seconds(2)) {
                fresh = try? connection.status(of: .ping, WirePingRequest(), token: nil)
            }
            if fresh?.code != .ok { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(fresh?.code == .ok)
    }

    /// A port that was free a moment ago (bound to port 0, then released).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestSupportError("cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
