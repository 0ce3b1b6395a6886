import Foundation
import StreakCore
import StreakPOSIX
import StreakTestSupport
import Testing

/// The user's own time zone: the local user takes the machine's zone on a server's first start,
/// `settings --time-zone local` takes the client machine's, and a client in another zone is told once.
@Suite("streak and the user's time zone", .serialized)
struct CLITimeZoneTests {
    @Test func theLocalUserTakesTheServersZoneAndTheClientIsToldOnceWhenItsZoneDiffers() throws {
        let server = try ServerProcess.start(environment: ["TZ": "America/New_York"])
        defer { server.stop() }
        let state = ServerProcess.temporaryDirectory(prefix: "streak-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = [
            "STREAKD_DATA_DIR": server.dataDirectory.path, "STREAK_SERVER": "127.0.0.1:\(server.port)",
            "XDG_STATE_HOME": state.path,
        ]
        let settings = try CLIRunner.run(
            ["settings", "--json"],
            environment: environment.merging(["TZ": "America/New_York"]) { $1 }
        )
        #expect(settings.stdout.contains("\"time_zone\": \"America/New_York\""), "\(settings.stdout)")
        #expect(settings.stderr.isEmpty, "\(settings.stderr)")

        // A client in Tokyo: told once, with the command that changes it; quiet the second time.
        let tokyo = environment.merging(["TZ": "Asia/Tokyo"]) { $1 }
        let first = try CLIRunner.run(["streak"], environment: tokyo)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("America/New_York"), "\(first.stderr)")
        #expect(first.stderr.contains("Asia/Tokyo") && first.stderr.contains("streak settings --time-zone local"))
        let second = try CLIRunner.run(["streak"], environment: tokyo)
        #expect(second.stderr.isEmpty, "\(second.stderr)")
        // --quiet never tells; a command given --as-of does not depend on today and says nothing.
        try? FileManager.default.removeItem(at: state)
        #expect(try CLIRunner.run(["--quiet", "streak"], environment: tokyo).stderr.isEmpty)
        #expect(try CLIRunner.run(["--as-of", "2025-06-15", "streak"], environment: tokyo).stderr.isEmpty)

        // settings --time-zone local takes the client's zone; then there is nothing to tell.
        let local = try CLIRunner.run(["settings", "--time-zone", "local", "--json"], environment: tokyo)
        #expect(local.stdout.contains("\"time_zone\": \"Asia/Tokyo\""), "\(local.stdout)")
        try? FileManager.default.removeItem(at: state)
        #expect(try CLIRunner.run(["streak"], environment: tokyo).stderr.isEmpty)
    }

    @Test(
        "a server whose TZ names no IANA zone gives its new local user the machine's other zone setting and says so",
        arguments: ["GMT+5", "JST-9"]
    )
    func serverWithPosixTZ(tz: String) throws {
        let server = try ServerProcess.start(environment: ["TZ": tz])
        defer { server.stop() }
        let settings = try CLIRunner.run(
            ["settings", "--json"],
            environment: ["STREAKD_DATA_DIR": server.dataDirectory.path, "STREAK_SERVER": "127.0.0.1:\(server.port)"]
        )
        // Not `GMT+5`, which Foundation reads as five hours ahead of UTC and the C library behind.
        let machine = MachineTimeZone.identifier(environment: [:])
        let expected = Today.utcIdentifiers.contains(machine) ? "UTC" : machine
        #expect(settings.stdout.contains("\"time_zone\": \"\(expected)\""), "\(settings.stdout)")
        #expect(server.log.contains("TZ names no IANA time zone") && server.log.contains(tz), "\(server.logTail)")
    }

    @Test(
        "with TZ a POSIX rule or an offset, local is refused with TZ's value, and the note does not offer it",
        arguments: [
            // (TZ, its offset from UTC as the C library reads it, the fixed zone suggested for it)
            ("JST-9", "UTC+09:00", "Etc/GMT-9"), ("GMT+5", "UTC\u{2212}05:00", "Etc/GMT+5"),
            ("UTC-3", "UTC+03:00", "Etc/GMT-3"), ("EST5EDT,M3.2.0,M11.1.0", nil, nil),
        ] as [(String, String?, String?)]
    )
    func posixTZ(tz: String, offset: String?, zone: String?) throws {
        let server = try ServerProcess.start(environment: ["TZ": "UTC"])
        defer { server.stop() }
        let state = ServerProcess.temporaryDirectory(prefix: "streak-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = [
            "STREAKD_DATA_DIR": server.dataDirectory.path, "STREAK_SERVER": "127.0.0.1:\(server.port)",
            "XDG_STATE_HOME": state.path, "TZ": tz,
        ]
        let local = try CLIRunner.run(["settings", "--time-zone", "local"], environment: environment)
        #expect(local.status == 65, "\(local.stdout)")
        #expect(
            local.stderr.contains("TZ is '\(tz)'") && local.stderr.contains("not an IANA zone name"),
            "\(local.stderr)"
        )
        if let offset { #expect(local.stderr.contains("(\(offset) now)"), "\(local.stderr)") }
        if let zone {
            #expect(local.stderr.contains("--time-zone your region's IANA zone"), "\(local.stderr)")
            #expect(local.stderr.contains("or \(zone) for \(offset ?? "") all year"), "\(local.stderr)")
        }
        let settings = try CLIRunner.run(["--json", "settings"], environment: environment)
        #expect(settings.stdout.contains("\"time_zone\": \"UTC\""), "\(settings.stdout)")

        guard let offset else { return }
        let note = try CLIRunner.run(["streak"], environment: environment)
        #expect(note.status == 0, "\(note.stderr)")
        #expect(note.stderr.contains("TZ=\(tz) (\(offset) now"), "\(note.stderr)")
        #expect(!note.stderr.contains("--time-zone local"), "\(note.stderr)")
        if let zone { #expect(note.stderr.contains(zone), "\(note.stderr)") }
        #expect(try CLIRunner.run(["streak"], environment: environment).stderr.isEmpty)
    }

    @Test func emptySettingsValuesAreRefused() throws {
        let server = try ServerProcess.start(environment: ["TZ": "UTC"])
        defer { server.stop() }
        let environment = ["STREAKD_DATA_DIR": server.dataDirectory.path, "STREAK_SERVER": "127.0.0.1:\(server.port)"]
        for option in ["--locale", "--time-zone"] {
            let output = try CLIRunner.run(["settings", option, ""], environment: environment)
            #expect(output.status == 65, "\(option): \(output.stdout)")
            #expect(output.stderr.contains("\(option) is empty"), "\(output.stderr)")
        }
    }

    @Test func relativeDatesFollowTheUsersZoneNotTheClients() throws {
        // The user lives at UTC+14 (Kiritimati) while the client says UTC-10 (Honolulu): at any
        // instant the user's today is one or two days after the client's. `today` is the user's.
        let server = try ServerProcess.start(environment: ["TZ": "Pacific/Kiritimati"])
        defer { server.stop() }
        let environment = [
            "STREAKD_DATA_DIR": server.dataDirectory.path, "STREAK_SERVER": "127.0.0.1:\(server.port)",
            "TZ": "Pacific/Honolulu",
        ]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Pacific/Kiritimati")!
        let before = calendar.dateComponents([.year, .month, .day], from: Date())
        let output = try CLIRunner.run(["--quiet", "--json", "today"], environment: environment)
        let after = calendar.dateComponents([.year, .month, .day], from: Date())
        #expect(output.status == 0, "\(output.stderr)")
        let expected = [before, after].map { String(format: "%04d-%02d-%02d", $0.year!, $0.month!, $0.day!) }
        #expect(expected.contains { output.stdout.contains("\"date\": \"\($0)\"") }, "\(output.stdout)")
    }
}
