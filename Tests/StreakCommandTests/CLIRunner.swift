import Foundation
import StreakTestSupport

/// Runs the built `streak` binary and captures what it printed.
struct CLIRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `streak` beside the test bundle (override with `STREAK_BIN`).
    static var binaryURL: URL {
        if let path = ProcessInfo.processInfo.environment["STREAK_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return ServerProcess.binaryURL.deletingLastPathComponent().appendingPathComponent("streak")
    }

    var server: String
    var token: String?
    var asOf = "2025-06-15"

    /// Runs `streak --server S --token T --as-of D ARGS` with a clean environment plus `environment`.
    func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        umask: String? = nil,
        input: Data? = nil
    ) throws -> Output {
        var global = ["--server", server, "--as-of", asOf]
        if let token { global += ["--token", token] }
        return try Self.run(global + arguments, environment: environment, umask: umask, input: input)
    }

    /// Runs `streak ARGS` as given; with `umask` (octal, e.g. "077"), under that umask (through `sh`);
    /// with `input`, that on standard input through a pipe (else no input).
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        umask: String? = nil,
        input: Data? = nil
    ) throws -> Output {
        let process = Process()
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sh", "-c", "umask \(umask) && exec \"$0\" \"$@\"", binaryURL.path] + arguments
        } else {
            process.executableURL = binaryURL
            process.arguments = arguments
        }
        var base = ProcessInfo.processInfo.environment
        for key in ["STREAK_SERVER", "STREAK_TOKEN", "NO_COLOR", "STREAKD_DATA_DIR", "XDG_DATA_HOME"] {
            base[key] = nil
        }
        base["HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("streak-no-home").path
        base["XDG_STATE_HOME"] = nil
        base["TZ"] = "UTC"
        // The text heatmap fits COLUMNS on a pipe: wide enough for the README's whole year unless a test says otherwise.
        base["COLUMNS"] = "120"
        process.environment = base.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        try process.run()
        if let inputPipe, let input {
            // From another thread: a child that answers before it has read everything must not block this one.
            Thread {
                try? inputPipe.fileHandleForWriting.write(contentsOf: input)
                try? inputPipe.fileHandleForWriting.close()
            }.start()
        }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }
}

/// Golden files in Tests/StreakCommandTests/Golden; `UPDATE_GOLDEN=1` rewrites them.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

    /// The stored text, or nil after writing it in update mode (or when it is missing).
    static func expected(_ name: String, actual: String) throws -> String? {
        let url = directory.appendingPathComponent(name + ".txt")
        if updating {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return nil
        }
        return try? String(contentsOf: url, encoding: .utf8)
    }
}
