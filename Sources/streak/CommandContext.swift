import Foundation
import StreakCLI
import StreakClient
import StreakCore
import StreakPOSIX
import StreakWire

#if canImport(Glibc)
import Glibc
#endif

/// What a command body works with: the client, the output choices, and the user's "today".
///
/// "Today" is the user's day: the current instant in the time zone and day start of the user's
/// settings on the server (fetched once, on first need), or `--as-of`. Relative dates
/// (`yesterday`, `-3`, `monday`) resolve against it, never against this machine's zone.
final class CommandContext {
    let client: StreakClient
    let json: Bool
    let style: TerminalStyle
    let quiet: Bool
    /// `--as-of` as typed; `asOf` once resolved.
    private let asOfExpression: DateExpression?
    /// `--as-of`, resolved (nil when not given).
    private(set) var asOf: CivilDate?
    private var cachedSettings: WireSettings?
    private var cachedToday: CivilDate?

    init(client: StreakClient, json: Bool, asOf: DateExpression?, style: TerminalStyle, quiet: Bool) {
        self.client = client
        self.json = json
        self.asOfExpression = asOf
        self.style = style
        self.quiet = quiet
    }

    /// Resolves `--as-of` (a relative one against the user's real today).
    func resolveAsOf() async throws {
        guard let asOfExpression else { return }
        asOf =
            asOfExpression.isRelative
            ? try DateArgument.resolve(asOfExpression, today: try await realToday(), option: "--as-of")
            : try DateArgument.resolve(asOfExpression, today: .min, option: "--as-of")
    }

    /// For a streak kept although its day does not count (`today_pending`): whether that day has
    /// nothing due for `habitIDs` (one GetDay), so that the text does not call it "not done".
    func nothingDue(pending streak: WireStreakSummary?, habitIDs: [Int64] = []) async throws -> Bool {
        guard let streak, streak.todayPending, let day = streak.asOf, !json else { return false }
        return try await client.day(day, habitIDs: habitIDs).due == 0
    }

    /// The user's settings, fetched once.
    func settings() async throws -> WireSettings {
        if let cachedSettings { return cachedSettings }
        let settings = try await client.settings()
        cachedSettings = settings
        return settings
    }

    /// The day that counts as today: `--as-of`, else the user's today.
    func today() async throws -> CivilDate {
        if let asOf { return asOf }
        return try await realToday()
    }

    /// The user's today from the clock, in the user's time zone and day start.
    func realToday() async throws -> CivilDate {
        if let cachedToday { return cachedToday }
        let settings = try await settings()
        let zone = TimeZone(identifier: settings.timeZone) ?? TimeZone(identifier: "UTC")!
        let dayStart = (try? DayStart(minutes: Int(settings.dayStartMinutes))) ?? DayStart.midnight
        let today = Today.date(at: Date(), in: zone, dayStart: dayStart)
        cachedToday = today
        return today
    }

    /// A date argument: nil stays nil; relative forms resolve against `today()`; a day after
    /// today is refused unless `allowFuture` (with the flag that allows it named).
    func date(_ text: String?, option: String, allowFuture: Bool = true) async throws -> CivilDate? {
        guard let text else { return nil }
        let expression = try DateArgument.parse(text, option: option)
        let date: CivilDate
        if expression.isRelative {
            date = try DateArgument.resolve(expression, today: try await today(), option: option)
        } else {
            date = try DateArgument.resolve(expression, today: .min, option: option)
        }
        if !allowFuture, date > (try await today()) {
            throw CLIFailure(
                .badInput,
                "\(option) \(date) is in the future (today is \(try await today())); pass --allow-future to mean it"
            )
        }
        return date
    }

    /// A date argument as `date(_:option:allowFuture:)` reads it, else `today()`.
    func dateOrToday(_ text: String?, option: String, allowFuture: Bool = true) async throws -> CivilDate {
        if let date = try await date(text, option: option, allowFuture: allowFuture) { return date }
        return try await today()
    }

    /// Says once on standard error when the server counts this user's days in another time zone
    /// than this machine's, and how to change it. "Once": the pair of zones is remembered in
    /// `$XDG_STATE_HOME/streak/time-zone-notice` (`~/.local/state/...`), and the note comes again
    /// only when either zone changes.
    func noteTimeZoneDifference() async throws {
        let settings = try await settings()
        let machine: String
        let hint: String
        let remembered: String
        if let tz = MachineTimeZone.unnamedTZ() {
            // The clock follows a POSIX rule (TZ=JST-9) or offset (TZ=GMT+5, five hours behind
            // UTC): compare what it gives now, and say it as the C library reads it.
            let offset = MachineTimeZone.currentOffset()
            guard TimeZone(identifier: settings.timeZone)?.secondsFromGMT() != offset else { return }
            machine = "on TZ=\(tz) (\(MachineTimeZone.offsetText(seconds: offset)) now, not an IANA zone name)"
            hint = "streak settings --time-zone with \(MachineTimeZone.zoneHint(seconds: offset))"
            remembered = "TZ=\(tz)"
        } else {
            let local = MachineTimeZone.identifier()
            guard !TimeZoneComparison.same(settings.timeZone, local) else { return }
            machine = "in \(local)"
            hint = "streak settings --time-zone local"
            remembered = local
        }
        let pair = "\(settings.timeZone) \(remembered)\n"
        let file = NoticeFile.timeZone
        if (try? String(contentsOf: file, encoding: .utf8)) == pair { return }
        let today = try await realToday()
        FileHandle.standardError.write(
            Data(
                ("streak: note: streakd counts your days in \(settings.timeZone) (today is \(today) there), "
                    + "this machine is \(machine); to use this machine's zone: \(hint) "
                    + "(this note is shown once)\n").utf8
            )
        )
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try? pair.write(to: file, atomically: true, encoding: .utf8)
    }

    /// Writes the JSON value (on one line when `compact`) or the text, as `--json` asks.
    /// - Throws: `CLIFailure(.ioError)` when standard output cannot take it (`> /dev/full`).
    func emit(
        json value: @autoclosure () -> JSONValue,
        text: @autoclosure () -> String,
        compact: Bool = false
    ) throws(CLIFailure) {
        try StandardOutput.write(json ? value().serialized(pretty: !compact) + "\n" : text())
    }
}

/// Where `streak` remembers the notes it has shown.
enum NoticeFile {
    /// `$XDG_STATE_HOME/streak/time-zone-notice`, else `~/.local/state/streak/time-zone-notice`.
    static var timeZone: URL {
        let environment = ProcessInfo.processInfo.environment
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
            .appendingPathComponent(".local/state", isDirectory: true)
        return state.appendingPathComponent("streak/time-zone-notice")
    }
}

/// Whether two zone names keep the same clock: equal names, or zones whose offsets agree across a
/// year (`UTC` and `Etc/UTC`).
enum TimeZoneComparison {
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        if lhs == rhs { return true }
        guard let a = TimeZone(identifier: lhs), let b = TimeZone(identifier: rhs) else { return false }
        let now = Date()
        return stride(from: 0.0, to: 366, by: 30.5).allSatisfy { days in
            let instant = now.addingTimeInterval(days * 86_400)
            return a.secondsFromGMT(for: instant) == b.secondsFromGMT(for: instant)
        }
    }
}

/// Standard output, written unbuffered: a write error (`streak heatmap > /dev/full`) is an I/O
/// error (exit 74), not a silent success.
enum StandardOutput {
    static func write(_ text: String) throws(CLIFailure) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(STDOUT_FILENO, buffer.baseAddress, buffer.count) }
            }
            guard written > 0 else {
                throw CLIFailure(.ioError, "cannot write to standard output: \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
