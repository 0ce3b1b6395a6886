import Foundation

/// Runs the reference protobuf implementation (`protoc` from Debian's protobuf-compiler, installed by
/// scripts/ensure-deps.sh) on the schema in proto/.
enum Protoc {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The protoc executable, or nil when it is not installed.
    static let path: String? = {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
            .split(separator: ":").map { "\($0)/protoc" } + ["/usr/bin/protoc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `protoc --encode=streak.v1.<message>`: text format in, binary out.
    static func encode(_ message: String, text: String) throws -> [UInt8] {
        try run(["--encode=streak.v1.\(message)"], input: Array(text.utf8))
    }

    /// `protoc --decode=streak.v1.<message>`: binary in, text format out.
    static func decode(_ message: String, bytes: [UInt8]) throws -> String {
        String(decoding: try run(["--decode=streak.v1.\(message)"], input: bytes), as: UTF8.self)
    }

    private static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        guard let path else { throw Failure(description: "protoc is not installed (scripts/ensure-deps.sh)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let protoDirectory = repositoryRoot.appendingPathComponent("proto").path
        process.arguments = arguments + ["-I", protoDirectory, "streak/v1/service.proto"]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write and read on separate threads so neither pipe can fill up and block the other.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "protoc \(arguments) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return [UInt8](output)
    }
}
