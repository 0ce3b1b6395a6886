import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Rest periods, the day start and per-habit views through the real server.
@Suite struct RestPeriodTests {
    @Test func restPeriodsBridgeAStreakAndAreListedAndRemoved() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("Swim", on: day("2024-06-01"))
        for date in ["2024-06-01", "2024-06-02", "2024-06-08"] { try harness.record(habit.id, day(date)) }
        let added: WireAddRestPeriodResponse = try harness.call(
            .addRestPeriod,
            WireAddRestPeriodRequest.with {
                $0.from = day("2024-06-03")
                $0.to = day("2024-06-07")
                $0.note = "pool closed"
                $0.asOf = day("2024-06-08")
            }
        )
        let period = try #require(added.restPeriod)
        #expect(period.id > 0 && period.note == "pool closed")
        #expect(added.streak?.current == 3 && added.streak?.currentStart == day("2024-06-01"))
        let list: WireListRestPeriodsResponse = try harness.call(.listRestPeriods, WireListRestPeriodsRequest())
        #expect(list.restPeriods == [period])
        let heatmap: WireGetHeatmapResponse = try harness.call(
            .getHeatmap,
            WireGetHeatmapRequest.with {
                $0.from = day("2024-06-01")
                $0.to = day("2024-06-08")
                $0.asOf = day("2024-06-08")
                $0.accessibilityLabels = true
            }
        )
        let cells = (heatmap.heatmap?.weeks ?? []).flatMap(\.cells).filter(\.present)
        #expect(cells.filter(\.rest).map(\.date) == (3...7).map { day("2024-06-0\($0)") })
        #expect(cells.first { $0.rest }?.accessibilityLabel == "June 3: rest day")

        let removed: WireRemoveRestPeriodResponse = try harness.call(
            .removeRestPeriod,
            WireRemoveRestPeriodRequest.with {
                $0.id = period.id
                $0.asOf = day("2024-06-08")
            }
        )
        #expect(removed.restPeriod == period && removed.streak?.current == 1)
        let gone = try harness.status(.removeRestPeriod, WireRemoveRestPeriodRequest.with { $0.id = period.id })
        #expect(gone.code == .notFound)
    }

    @Test func badRestPeriodsAreRefusedAndWriteNothing() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let backwards = try harness.status(
            .addRestPeriod,
            WireAddRestPeriodRequest.with {
                $0.from = day("2024-03-05")
                $0.to = day("2024-03-01")
            }
        )
        #expect(backwards.code == .invalidArgument)
        let tooLong = try harness.status(
            .addRestPeriod,
            WireAddRestPeriodRequest.with {
                $0.from = day("2000-01-01")
                $0.to = day("2030-01-01")
            }
        )
        #expect(tooLong.code == .invalidArgument && tooLong.message.contains("20 years"))
        let noFrom = try harness.status(.addRestPeriod, WireAddRestPeriodRequest.with { $0.to = day("2024-03-01") })
        #expect(noFrom.code == .invalidArgument && noFrom.message.contains("from"))
        let longNote = try harness.status(
            .addRestPeriod,
            WireAddRestPeriodRequest.with {
                $0.from = day("2024-03-01")
                $0.to = day("2024-03-01")
                $0.note = String(repeating: "n", count: 201)
            }
        )
        #expect(longNote.code == .invalidArgument && longNote.message.contains("note"))
        // The whole note rule is checked with the request, not only its length: a control
        // character is refused naming the field, as a long note is, before the write is queued.
        for note in [String(repeating: "n", count: 201), "pool\u{7}closed", "line\nbreak"] {
            let refused = try harness.status(
                .addRestPeriod,
                WireAddRestPeriodRequest.with {
                    $0.from = day("2024-03-01")
                    $0.to = day("2024-03-01")
                    $0.note = note
                }
            )
            #expect(refused.code == .invalidArgument, "\(note.debugDescription)")
            #expect(refused.message == "note: \(RestPeriodNote.problem(note) ?? "")", "\(refused.message)")
        }
        let list: WireListRestPeriodsResponse = try harness.call(.listRestPeriods, WireListRestPeriodsRequest())
        #expect(list.restPeriods.isEmpty)
    }

    @Test func dayStartSettingAndItsBounds() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let updated: WireUpdateSettingsResponse = try harness.call(
            .updateSettings,
            WireUpdateSettingsRequest.with {
                $0.setDayStart = true
                $0.dayStartMinutes = 180
            }
        )
        #expect(updated.settings?.dayStartMinutes == 180)
        // Another field alone keeps the day start.
        let other: WireUpdateSettingsResponse = try harness.call(
            .updateSettings,
            WireUpdateSettingsRequest.with { $0.locale = "de_DE" }
        )
        #expect(other.settings?.dayStartMinutes == 180)
        let bad = try harness.status(
            .updateSettings,
            WireUpdateSettingsRequest.with {
                $0.setDayStart = true
                $0.dayStartMinutes = 721
            }
        )
        #expect(bad.code == .invalidArgument && bad.message.contains("day_start_minutes"))
        let settings: WireGetSettingsResponse = try harness.call(.getSettings, WireGetSettingsRequest())
        #expect(settings.settings?.dayStartMinutes == 180 && settings.settings?.locale == "de_DE")
    }

    @Test func perHabitViewsAndUnknownIds() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let read = try harness.createHabit("Read", on: day("2024-01-01"))
        let run = try harness.createHabit("Run", on: day("2024-01-01"))
        for date in ["2024-01-01", "2024-01-02", "2024-01-03"] { try harness.record(read.id, day(date)) }
        try harness.record(run.id, day("2024-01-03"))
        let all: WireGetStreakResponse = try harness.call(
            .getStreak,
            WireGetStreakRequest.with { $0.asOf = day("2024-01-03") }
        )
        let runOnly: WireGetStreakResponse = try harness.call(
            .getStreak,
            WireGetStreakRequest.with {
                $0.asOf = day("2024-01-03")
                $0.habitIds = [run.id]
            }
        )
        #expect(all.streak?.current == 3 && runOnly.streak?.current == 1)
        let dayView: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with {
                $0.date = day("2024-01-02")
                $0.habitIds = [run.id]
            }
        )
        #expect(
            dayView.day?.active == 1 && dayView.day?.completed == 0 && dayView.day?.openHabits.map(\.id) == [run.id]
        )
        for method in [WireMethod.getHeatmap, .getWeekdayChart, .getMonthPage] {
            let request: any WireMessage =
                switch method {
                case .getHeatmap: WireGetHeatmapRequest.with { $0.habitIds = [read.id, 999] }
                case .getWeekdayChart: WireGetWeekdayChartRequest.with { $0.habitIds = [999] }
                default: WireGetMonthPageRequest.with { $0.habitIds = [999] }
                }
            let status = try harness.status(method, request)
            #expect(status.code == .notFound && status.message.contains("999"), "\(method)")
        }
    }

    @Test func watchersSeeSkipsAndRestDays() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        let watch = try harness.server.connect()
        _ = try watch.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        let streamID = try watch.sendRequest(
            WireMethod.watch.rawValue,
            message: WireWatchRequest.with { $0.asOf = day("2024-01-10") }.serializedBytes(),
            token: harness.token
        )
        _ = try watch.status(of: .ping, WirePingRequest(), token: nil)
        let _: WireCompletionResponse = try harness.call(
            .skipHabit,
            WireSkipHabitRequest.with {
                $0.habitId = habit.id
                $0.date = day("2024-01-05")
            }
        )
        let skipEvent = try Self.event(from: watch, stream: streamID)
        #expect(skipEvent.day?.date == day("2024-01-05") && skipEvent.day?.rest == true)
        let _: WireAddRestPeriodResponse = try harness.call(
            .addRestPeriod,
            WireAddRestPeriodRequest.with {
                $0.from = day("2024-01-07")
                $0.to = day("2024-01-08")
            }
        )
        let first = try Self.event(from: watch, stream: streamID)
        let second = try Self.event(from: watch, stream: streamID)
        #expect([first.day?.date, second.day?.date] == [day("2024-01-07"), day("2024-01-08")])
        #expect(first.day?.rest == true && second.day?.rest == true)
    }

    private static func event(from connection: TestConnection, stream: UInt32) throws -> WireWatchEvent {
        guard case .streamMessage(let id, let bytes) = try #require(try connection.readFrame()), id == stream else {
            throw TestSupportError("expected a stream message of stream \(stream)")
        }
        return try WireWatchEvent(serializedBytes: bytes)
    }
}
