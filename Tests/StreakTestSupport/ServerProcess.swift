import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real `streakd` process started for a test on 127.0.0.1 with an ephemeral port.
///
/// The binary is the one `swift build --build-tests` put beside the test bundle
/// (override with the `STREAKD_BIN` environment variable). Its standard error goes to
/// `<data dir>/streakd.log`.
public final class ServerProcess: @unchecked Sendable {
    /// The port the server listens on.
    public let port: Int
    /// The host of the listening line, `streakd listening on HOST:PORT`.
    public let host: String
    /// The local user's token from `<data dir>/token`, when the server wrote one.
    public let token: String?
    /// The server's data directory.
    public let dataDirectory: URL
    /// The process.
    public let process: Process

    private init(port: Int, host: String, token: String?, dataDirectory: URL, process: Process) {
        self.port = port
        self.host = host
        self.token = token
        self.dataDirectory = dataDirectory
        self.process = process
    }

    deinit {
        if process.isRunning { kill() }
    }

    /// The process identifier.
    public var pid: Int32 { process.processIdentifier }

    /// The `streakd` executable to test.
    public static var binaryURL: URL {
        if let path = ProcessInfo.processInfo.environment["STREAKD_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return bundle.deletingLastPathComponent().appendingPathComponent("streakd")
    }

    /// The `streak-load` executable (the benchmark's load generator) beside `streakd`, or
    /// `STREAK_LOAD_BIN`.
    public static var loadBinaryURL: URL {
        if let path = ProcessInfo.processInfo.environment["STREAK_LOAD_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return bundle.deletingLastPathComponent().appendingPathComponent("streak-load")
    }

    /// The process's memory map, `/proc/PID/maps`, read to its end (its size shows as 0, so
    /// reading by size would stop early).
    public static func memoryMaps(of pid: Int32) throws -> String {
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else {
            throw TestSupportError("cannot open /proc/\(pid)/maps")
        }
        defer { try? file.close() }
        return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    }

    /// A fresh empty directory under the system's temporary directory, removed with its
    /// contents when the test process exits (see `TemporaryDirectories`).
    public static func temporaryDirectory(prefix: String = "streakd-test") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        TemporaryDirectories.track(url)
        return url
    }

    /// Starts `streakd --port PORT --data-dir DIR` and waits for its listening line.
    /// - Parameters:
    ///   - dataDirectory: the data directory; a fresh temporary one when nil.
    ///   - port: the port; 0 (the default) lets the system pick one. A given port is for
    ///     restarting a server where it was, as clients would see it.
    ///   - extraArguments: more flags, e.g. `["--max-frame-bytes", "1024"]`.
    ///   - environment: variables to set, e.g. `STREAKD_PORT`; with `passDefaults` false the
    ///     port and data directory come only from here and `extraArguments`.
    ///   - passDefaults: pass `--port 0 --data-dir DIR` (true by default).
    ///   - timeout: how long to wait for `streakd listening on HOST:PORT`.
    /// - Throws: `TestSupportError` when the process exits or stays silent.
    public static func start(
        dataDirectory: URL? = nil,
        port: Int = 0,
        extraArguments: [String] = [],
        environment extraEnvironment: [String: String] = [:],
        passDefaults: Bool = true,
        timeout: Duration = .seconds(30)
    ) throws -> ServerProcess {
        let directory = dataDirectory ?? temporaryDirectory()
        let process = Process()
        process.executableURL = binaryURL
        process.arguments =
            (passDefaults ? ["--port", String(port), "--data-dir", directory.path] : []) + extraArguments
        var environment = ProcessInfo.processInfo.environment
        environment["STREAKD_PORT"] = nil
        environment["STREAKD_HOST"] = nil
        environment["STREAKD_DATA_DIR"] = nil
        // The local user takes the machine's zone on first start: fixed here, so tests read the
        // same on every machine (a test that wants another zone passes TZ).
        environment["TZ"] = "UTC"
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try logHandle(in: directory)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let line: String
        do {
            line = try LineReader.readLine(from: output.fileHandleForReading.fileDescriptor, timeout: timeout)
        } catch {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw TestSupportError("streakd did not start: \(error); log: \(logTail(of: directory))")
        }
        let prefix = "streakd listening on "
        guard line.hasPrefix(prefix), let colon = line.lastIndex(of: ":"),
            let port = Int(line[line.index(after: colon)...])
        else {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestSupportError("unexpected first line from streakd: \(line)")
        }
        let tokenFile = directory.appendingPathComponent("token")
        let token = (try? String(contentsOf: tokenFile, encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let host = String(line[line.index(line.startIndex, offsetBy: prefix.count)..<colon])
        return ServerProcess(port: port, host: host, token: token, dataDirectory: directory, process: process)
    }

    /// Sends SIGTERM (or `signal`) and waits for the exit.
    /// - Returns: the exit status (or 128 + the signal when a signal ended it).
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(30)) -> Int32 {
        guard process.isRunning else { return exitStatus }
        Glibc.kill(pid, signal)
        if !waitForExit(timeout: timeout) {
            kill()
        }
        return exitStatus
    }

    /// Sends SIGKILL and waits for the exit.
    public func kill() {
        if process.isRunning { Glibc.kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the process to exit on its own; false when it is still running after `timeout`.
    public func waitForExit(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            usleep(10_000)
        }
        if process.isRunning { return false }
        process.waitUntilExit()
        return true
    }

    /// The exit status (or 128 + signal), valid once the process ended.
    public var exitStatus: Int32 {
        process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// The last lines of the server's log, for failure messages.
    public var logTail: String { ServerProcess.logTail(of: dataDirectory) }

    /// The server's whole log (standard error).
    public var log: String {
        (try? String(contentsOf: dataDirectory.appendingPathComponent("streakd.log"), encoding: .utf8)) ?? ""
    }

    /// The server's resident memory in KiB (VmRSS), or nil when it cannot be read.
    public var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Waits until the log holds `text`. - Returns: whether it did within `timeout`.
    public func waitForLog(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if log.contains(text) { return true }
            usleep(20_000)
        }
        return log.contains(text)
    }

    /// Opens a TLS connection to this server (preface exchanged inside TLS), trusting `caFile`.
    public func connectTLS(
        caFile: String,
        serverName: String = "localhost",
        timeout: Duration = .seconds(20)
    ) throws -> TestConnection {
        try TestConnection(port: port, timeout: timeout, tls: (caFile, serverName))
    }

    /// Removes the data directory (after `stop()`).
    public func removeDataDirectory() {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// Opens a raw connection to this server (preface exchanged).
    public func connect(timeout: Duration = .seconds(20)) throws -> TestConnection {
        try TestConnection(port: port, timeout: timeout)
    }

    /// Runs `streakd ARGUMENTS` to completion (e.g. `user add bob --data-dir DIR`).
    /// - Parameters:
    ///   - executable: another program to run instead (e.g. `loadBinaryURL`).
    ///   - timeout: after this the process is killed (a server that should have refused to start
    ///     must not hang the test).
    /// - Returns: the exit status, standard output and standard error.
    public static func run(
        _ arguments: [String],
        executable: URL = binaryURL,
        timeout: Duration = .seconds(60)
    ) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let finished = OnceValue<Bool>(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) {
            if !finished.isSet { Glibc.kill(pid, SIGKILL) }
        }
        defer { finished.set(true) }
        // Read both pipes to the end before waiting so that a chatty child never blocks.
        let errorData = OnceValue<Data>(Data())
        let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1000) }
        return (
            process.terminationStatus,
            String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData.value, as: UTF8.self)
        )
    }

    private static func logHandle(in directory: URL) throws -> FileHandle {
        let url = directory.appendingPathComponent("streakd.log")
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        return handle
    }

    private static func logTail(of directory: URL) -> String {
        let url = directory.appendingPathComponent("streakd.log")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return "(no log)" }
        return text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }
}

/// A failure of the test support code itself.
public struct TestSupportError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
