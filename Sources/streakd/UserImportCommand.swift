import ArgumentParser
import FoundationEssentials
import Logging
import StreakPOSIX
import StreakStorage

#if canImport(Glibc)
import Glibc
#endif

extension UserCommand {
    /// `streakd user import FILE`: many users in one transaction, their tokens out.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the users named in FILE, all in one transaction, and print each name with its token.",
            discussion: """
                FILE ('-' for standard input) holds one user name per line; blank lines and lines \
                starting with # are skipped, and spaces and tabs around a name are ignored. Names follow \
                the rule of 'streakd user add'. Every user is created, or none: an invalid name, \
                a name given twice or a name that exists fails the whole import with FILE:LINE in \
                the message, and nothing is written.

                The output is one "NAME TOKEN" line per user, in FILE's order, on standard output \
                or in the file given with -o, which is created with mode 0600 and must not exist. \
                Works beside a running server, like 'streakd user add'.
                """
        )
        @Argument(
            help: ArgumentHelp("The file of user names, one per line ('-' for standard input).", valueName: "file")
        )
        var file: String

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp(
                "Write the name-and-token lines to OUT (mode 0600; refused when it exists).",
                valueName: "out"
            )
        )
        var output: String?

        @OptionGroup var storage: DataDirectoryOptions
        @OptionGroup var logging: LoggingOptions

        func run() throws {
            logging.bootstrap()
            let started = ContinuousClock.now
            let names: [UserNameList.Entry]
            do {
                names = try UserNameList.read(file)
            } catch {
                Self.fail(error.description)
            }
            guard !names.isEmpty else { Self.fail("\(UserNameList.displayName(file)) holds no user names") }
            let out: OutputFile?
            do {
                out = try output.map { path throws(OutputFile.Failure) in try OutputFile(exclusive: path) }
            } catch {
                Self.fail(error.description)
            }
            let created: [(user: UserRecord, token: String)]
            let reporting = { (error: StorageError) -> String in
                guard let item = error.item, names.indices.contains(item) else { return error.message }
                let entry = names[item]
                return "\(UserNameList.displayName(file)):\(entry.line): \(entry.name): \(error.message)"
            }
            do {
                created = try UserCommand.withStore(storage, creating: true, reporting: reporting) {
                    store throws(StorageError) in
                    try store.createUsers(names: names.map(\.name))
                }
            } catch {
                out?.discard()
                throw error
            }
            var text = ""
            text.reserveCapacity(created.count * 80)
            for (user, token) in created { text += "\(user.name) \(token)\n" }
            if let out {
                do {
                    try out.finish(writing: Data(text.utf8))
                } catch {
                    Self.fail(
                        "the \(created.count) users were created, but their tokens could not be written: \(error); "
                            + "revoke them ('streakd user revoke NAME') and import them under other names"
                    )
                }
            } else {
                StandardStreams.writeOutput(text)
            }
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let tokensAt = output.map { ", tokens in \($0)" } ?? ""
            StandardStreams.writeError(
                "streakd: created \(created.count) users in \(decimalText(seconds, places: 2)) s\(tokensAt)\n"
            )
        }

        /// Says why on standard error and exits with status 1.
        static func fail(_ message: String) -> Never {
            StandardStreams.writeError("streakd: \(message)\n")
            Self.exit(withError: ExitCode.failure)
        }
    }
}

/// The names of a `streakd user import` file, each with its line, checked in order: the first
/// bad line fails the whole file.
enum UserNameList {
    struct Entry {
        let name: String
        let line: Int
    }

    /// A line that is not a valid name, or not text.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How messages name the file.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Reads and checks the names of `path` ('-': standard input).
    static func read(_ path: String) throws(Failure) -> [Entry] {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot read \(path): \(SystemError(errno: errno))")
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let data: [UInt8]
        do {
            data = try StandardStreams.readToEnd(descriptor)
        } catch {
            throw Failure(description: "cannot read \(displayName(path)): \(error)")
        }
        return try parse(Data(data), file: displayName(path))
    }

    /// The names of `data`, lines split on newlines; spaces around a name are trimmed, blank
    /// lines and `#` comments skipped.
    static func parse(_ data: Data, file: String) throws(Failure) -> [Entry] {
        var entries: [Entry] = []
        var firstLine: [String: Int] = [:]
        var number = 0
        for bytes in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard let line = String(validating: bytes, as: UTF8.self) else {
                throw Failure(description: "\(file):\(number): not UTF-8 text")
            }
            let name = trimmed(line)
            if name.isEmpty || name.hasPrefix("#") { continue }
            guard UserName.isValid(name) else { throw Failure(description: "\(file):\(number): \(UserName.rule)") }
            if let first = firstLine[name] {
                throw Failure(description: "\(file):\(number): \(name): the user name is already on line \(first)")
            }
            firstLine[name] = number
            entries.append(Entry(name: name, line: number))
        }
        return entries
    }

    /// `line` without the spaces, tabs and carriage return around it (a name holds none).
    static func trimmed(_ line: String) -> String {
        let utf8 = line.utf8
        guard let first = utf8.firstIndex(where: { !blank.contains($0) }),
            let last = utf8.lastIndex(where: { !blank.contains($0) })
        else { return "" }
        return String(line[first...last])
    }

    /// Space, tab, carriage return, vertical tab, form feed.
    private static let blank: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0B, 0x0C]
}

/// A file created for the output alone: exclusively (it must not exist), mode 0600, removed
/// again when the command fails before writing it.
final class OutputFile {
    let path: String
    private var descriptor: Int32

    /// Creates `path`. - Throws: `OutputFile.Failure` when it exists or cannot be created.
    init(exclusive path: String) throws(Failure) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason =
                errno == EEXIST
                ? "it already exists (the output is never overwritten)" : String(cString: strerror(errno))
            throw Failure(description: "cannot create \(path): \(reason)")
        }
        fchmod(descriptor, 0o600)
    }

    /// Writes `data`, syncs and closes. - Throws: `OutputFile.Failure` with the system's reason.
    func finish(writing data: Data) throws {
        defer {
            close(descriptor)
            descriptor = -1
        }
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else {
            throw Failure(description: "cannot sync \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Closes and removes the file (nothing was written to it).
    func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(path)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
