import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Watch streams that ask for `lifecycle_events` (SUBSCRIBED, DAY_STARTED, SETTINGS_CHANGED), and
/// those that do not, which get exactly the day changes they always got.
@Suite struct WatchLifecycleTests {
    @Test func subscribedComesFirstAndAWriteRightAfterItArrives() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        // No call first: the token is not cached, so the Watch is registered on the work queue.
        let watch = try EventStream(harness.server, token: harness.token, asOf: day("2024-01-10"), lifecycle: true)
        let subscribed = try watch.next()
        #expect(subscribed.kind == .subscribed)
        #expect(subscribed.day == nil)
        #expect(subscribed.streak?.asOf == day("2024-01-10") && subscribed.streak?.current == 0)

        try harness.record(habit.id, day("2024-01-10"))
        let changed = try watch.next()
        #expect(changed.kind == .dayChanged)
        #expect(changed.day?.date == day("2024-01-10") && changed.day?.completed == 1)
        #expect(changed.streak?.current == 1)
    }

    @Test func settingsChangedAfterUpdateSettingsAndImportDataCarriesTheStreak() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let today = try Self.utcToday()
        let habit = try harness.createHabit("h", on: try today.adding(days: -5))
        try harness.record(habit.id, try today.adding(days: -1))
        try harness.record(habit.id, today)
        let plain = try EventStream(harness.server, token: harness.token, lifecycle: false)
        let watch = try EventStream(harness.server, token: harness.token, lifecycle: true)
        #expect(try watch.next().kind == .subscribed)

        let changes: [(String, any WireMessage, WireMethod)] = [
            ("min_percent", WireUpdateSettingsRequest.with { $0.minPercent = 50 }, .updateSettings),
            ("time_zone", WireUpdateSettingsRequest.with { $0.timeZone = "Etc/GMT+12" }, .updateSettings),
            (
                "day start",
                WireUpdateSettingsRequest.with {
                    $0.setDayStart = true
                    $0.dayStartMinutes = 240
                }, .updateSettings
            ),
            ("week_start", WireUpdateSettingsRequest.with { $0.weekStart = .sunday }, .updateSettings),
            (
                "ImportData settings",
                WireImportDataRequest.with {
                    $0.settings = WireSettings.with {
                        $0.timeZone = "Etc/GMT-14"
                        $0.minPercent = 100
                    }
                }, .importData
            ),
        ]
        for (name, request, method) in changes {
            #expect(try harness.status(method, request).code == .ok, "\(name)")
            let event = try watch.next()
            let streak: WireGetStreakResponse = try harness.call(.getStreak, WireGetStreakRequest())
            #expect(event.kind == .settingsChanged, "\(name)")
            #expect(event.day == nil, "\(name)")
            #expect(event.streak == streak.streak, "\(name)")
        }

        // Settings that change nothing send nothing: the next event is the next day change.
        #expect(try harness.status(.updateSettings, WireUpdateSettingsRequest.with { $0.minPercent = 100 }).code == .ok)
        let earlier = try today.adding(days: -3)
        try harness.record(habit.id, earlier)
        let next = try watch.next()
        #expect(next.kind == .dayChanged && next.day?.date == earlier)
        // The stream without the flag got that day change and nothing for the settings.
        let first = try plain.next()
        #expect(first.kind == .dayChanged && first.day?.date == earlier)
    }

    @Test func dayStartedWhenTheUsersDayStarts() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        // A day start is a whole minute of wall-clock time and the Etc zones are whole hours: the
        // next day starts at the next whole UTC minute at least 3 s away (time for the setup).
        let now = Date().timeIntervalSince1970
        var boundary = (now / 60).rounded(.up) * 60
        if boundary - now < 3 { boundary += 60 }
        let zone = try #require(Self.zone(startingADayAt: boundary))
        #expect(
            try harness.status(
                .updateSettings,
                WireUpdateSettingsRequest.with {
                    $0.timeZone = zone.name
                    $0.setDayStart = true
                    $0.dayStartMinutes = Int32(zone.dayStartMinutes)
                }
            ).code == .ok
        )
        let plain = try EventStream(harness.server, token: harness.token, lifecycle: false)
        let fixed = try EventStream(harness.server, token: harness.token, asOf: day("2024-01-10"), lifecycle: true)
        let watch = try EventStream(
            harness.server,
            token: harness.token,
            lifecycle: true,
            timeout: .seconds(Int64(boundary - now) + 30)
        )
        let subscribed = try watch.next()
        #expect(subscribed.kind == .subscribed)
        let yesterday = try zone.newToday.adding(days: -1)
        #expect(subscribed.streak?.asOf == yesterday)
        #expect(try fixed.next().kind == .subscribed)

        let started = try watch.next()
        #expect(Date().timeIntervalSince1970 >= boundary)
        #expect(started.kind == .dayStarted)
        #expect(started.day?.date == zone.newToday && started.day?.active == 0)
        #expect(started.streak?.asOf == zone.newToday)

        // Neither the stream without the flag nor the one with a fixed as_of got DAY_STARTED:
        // their next event is this write's.
        let habit = try harness.createHabit("h", on: zone.newToday)
        try harness.record(habit.id, zone.newToday)
        for stream in [plain, fixed, watch] {
            let event = try stream.next()
            #expect(event.kind == .dayChanged && event.day?.date == zone.newToday)
        }
    }

    /// An Etc/GMT zone and a day start (0...719 minutes) under which a day starts at `instant` (a
    /// whole UTC minute), and the date it starts.
    static func zone(startingADayAt instant: Double) -> (name: String, dayStartMinutes: Int, newToday: CivilDate)? {
        for hours in -12...14 {
            let local = Int(instant) + hours * 3600
            let seconds = ((local % 86_400) + 86_400) % 86_400
            guard seconds < 12 * 3600 else { continue }
            // IANA's Etc zones have the sign inverted: Etc/GMT-3 is UTC+3.
            let name = hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
            let date = try? CivilDate(dayNumber: Int((Double(local) / 86_400).rounded(.down)))
            return date.map { (name, seconds / 60, $0) }
        }
        return nil
    }

    static func utcToday() throws -> CivilDate {
        try CivilDate(dayNumber: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)))
    }
}

/// A Watch stream on a connection of its own.
struct EventStream {
    let connection: TestConnection
    let id: UInt32

    /// Opens the stream. Without `lifecycle` it is registered before this returns (a call caches
    /// the token first, so the Watch registers inline and the Ping after it answers only then);
    /// with it, SUBSCRIBED says so.
    init(
        _ server: ServerProcess,
        token: String,
        asOf: CivilDate? = nil,
        lifecycle: Bool,
        timeout: Duration = .seconds(30)
    ) throws {
        connection = try server.connect(timeout: timeout)
        if !lifecycle { _ = try connection.status(of: .getSettings, WireGetSettingsRequest(), token: token) }
        id = try connection.sendRequest(
            WireMethod.watch.rawValue,
            message: WireWatchRequest(asOf: asOf, lifecycleEvents: lifecycle).serializedBytes(),
            token: token
        )
        if !lifecycle { _ = try connection.status(of: .ping, WirePingRequest(), token: nil) }
    }

    /// The next event (waits for it, up to the connection's timeout).
    func next() throws -> WireWatchEvent {
        let frame = try #require(try connection.readFrame())
        guard case .streamMessage(let streamID, let bytes) = frame, streamID == id else {
            throw TestSupportError("expected an event of stream \(id), got \(frame)")
        }
        return try WireWatchEvent(serializedBytes: bytes)
    }
}
