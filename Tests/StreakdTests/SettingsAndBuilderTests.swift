import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

/// Settings, the stateless builders and the operational methods.
@Suite struct SettingsAndBuilderTests {
    @Test func settingsDefaultsAndUpdates() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let initial: WireGetSettingsResponse = try harness.call(.getSettings, WireGetSettingsRequest())
        #expect(initial.settings?.timeZone == "UTC" && initial.settings?.locale == "en_US")
        #expect(initial.settings?.weekStart == .monday && initial.settings?.minPercent == 0)

        let updated: WireUpdateSettingsResponse = try harness.call(
            .updateSettings,
            WireUpdateSettingsRequest.with {
                $0.timeZone = "Europe/Berlin"
                $0.weekStart = .sunday
                $0.minPercent = 60
            }
        )
        #expect(updated.settings?.timeZone == "Europe/Berlin" && updated.settings?.locale == "en_US")
        #expect(updated.settings?.weekStart == .sunday && updated.settings?.minPercent == 60)
        let cleared: WireUpdateSettingsResponse = try harness.call(
            .updateSettings,
            WireUpdateSettingsRequest.with {
                $0.clearMinPercent = true
                $0.locale = "de_DE"
            }
        )
        #expect(cleared.settings?.minPercent == 0 && cleared.settings?.locale == "de_DE")
        let read: WireGetSettingsResponse = try harness.call(.getSettings, WireGetSettingsRequest())
        #expect(read.settings == cleared.settings)
    }

    @Test func concurrentPartialUpdatesOfDifferentFieldsAllSurvive() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"]
        let count = 60
        for round in 0..<4 {
            let zoneUpdates = (0..<count).map { index in
                WireUpdateSettingsRequest.with { $0.timeZone = zones[(index + round) % zones.count] }
            }
            let percentUpdates = (0..<count).map { index in
                WireUpdateSettingsRequest.with { $0.minPercent = Int32((index + round) % 100 + 1) }
            }
            // Two connections pipeline their updates at the same time; each waits for all its answers.
            let failures = Mutex(0)
            let done = DispatchGroup()
            for updates in [zoneUpdates, percentUpdates] {
                done.enter()
                Thread {
                    defer { done.leave() }
                    guard let connection = try? harness.server.connect() else {
                        failures.withLock { $0 += 1 }
                        return
                    }
                    // Pipelined requests of one connection may be applied in any order: the last
                    // update is sent only once the others were answered, so it is the last applied.
                    var ok = 0
                    for batch in [updates.dropLast(), updates.suffix(1)] {
                        let ids = batch.compactMap {
                            try? connection.sendRequest(
                                WireMethod.updateSettings.rawValue,
                                message: $0.serializedBytes(),
                                token: harness.token
                            )
                        }
                        ok += ids.filter { (try? connection.awaitResponse($0).status.code) == .ok }.count
                    }
                    if ok != updates.count { failures.withLock { $0 += 1 } }
                }.start()
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(failures.withLock { $0 } == 0)
            let final: WireGetSettingsResponse = try harness.call(.getSettings, WireGetSettingsRequest())
            #expect(final.settings?.timeZone == zones[(count - 1 + round) % zones.count], "round \(round)")
            #expect(final.settings?.minPercent == Int32((count - 1 + round) % 100 + 1), "round \(round)")
        }
    }

    @Test(arguments: [
        WireUpdateSettingsRequest.with { $0.timeZone = "Mars/Olympus" },
        WireUpdateSettingsRequest.with { $0.timeZone = "GMT+5" },
        WireUpdateSettingsRequest.with { $0.locale = "xx_NOPE" },
        WireUpdateSettingsRequest.with { $0.minPercent = 101 },
        WireUpdateSettingsRequest.with { $0.minPercent = -5 },
    ])
    func badSettingsAreInvalidArguments(request: WireUpdateSettingsRequest) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        #expect(try harness.status(.updateSettings, request).code == .invalidArgument)
    }

    @Test(arguments: [
        (["2024-01-01", "2024-01-08", "2024-01-15", "2024-02-05"], ["Jan", "Feb"], [Int32(0), 3]),
        (["2024-01-01", "2024-01-08", "2024-02-01", "2024-03-01"], ["Jan", "Mar"], [0, 3]),
    ])
    func monthLabelsFollowTheSeedExamples(starts: [String], labels: [String], indexes: [Int32]) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let answer: WireBuildMonthLabelsResponse = try harness.call(
            .buildMonthLabels,
            WireBuildMonthLabelsRequest.with {
                $0.weekStarts = starts.map(day)
            }
        )
        #expect(answer.labels.map(\.label) == labels && answer.labels.map(\.weekIndex) == indexes)
        // The cached answer is the same.
        let again: WireBuildMonthLabelsResponse = try harness.call(
            .buildMonthLabels,
            WireBuildMonthLabelsRequest.with {
                $0.weekStarts = starts.map(day)
            }
        )
        #expect(again == answer)
    }

    @Test func buildHeatmapAndMonthPageFromTheRequest() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let heatmap: WireBuildHeatmapResponse = try harness.call(
            .buildHeatmap,
            WireBuildHeatmapRequest.with {
                $0.habits = [Int64(1), 2].map { id in
                    WireHabit.with {
                        $0.id = id
                        $0.name = "h\(id)"
                        $0.createdOn = day("2024-01-01")
                    }
                }
                $0.completions = [
                    WireCompletion.with {
                        $0.habitId = 1
                        $0.date = day("2024-01-02")
                    },
                    WireCompletion.with {
                        $0.habitId = 2
                        $0.date = day("2024-01-02")
                    },
                    WireCompletion.with {
                        $0.habitId = 1
                        $0.date = day("2024-01-03")
                    },
                ]
                $0.from = day("2024-01-01")
                $0.to = day("2024-01-07")
                $0.asOf = day("2024-01-04")
            }
        )
        let weeks = try #require(heatmap.heatmap?.weeks)
        #expect(weeks.count == 1 && weeks[0].cells.map(\.level) == [0, 3, 2, 0, 0, 0, 0])
        #expect(weeks[0].cells.map(\.present) == [true, true, true, true, false, false, false])
        #expect(heatmap.streak?.current == 2 && heatmap.streak?.todayPending == true)

        let page: WireBuildMonthPageResponse = try harness.call(
            .buildMonthPage,
            WireBuildMonthPageRequest.with {
                $0.year = 2024
                $0.month = 12
                $0.asOf = day("2024-12-25")
                $0.highlighted = [day("2024-12-24")]
                $0.weekStart = WireWeekStart.with { $0.kind = .weekday(.monday) }
            }
        )
        let monthPage = try #require(page.page)
        #expect(monthPage.days.count == 42 && monthPage.nextYear == 2025 && monthPage.nextMonth == 1)
        // Dec 1 2024 is a Sunday: six leading days in a Monday-started page.
        #expect(monthPage.days[6].date == day("2024-12-01"))
        #expect(monthPage.days.filter(\.highlighted).map(\.date) == [day("2024-12-24")])
        #expect(monthPage.days.filter(\.today).map(\.date) == [day("2024-12-25")])
        let missing = try harness.status(.buildMonthPage, WireBuildMonthPageRequest.with { $0.year = 2024 })
        #expect(missing.code == .invalidArgument)
    }

    @Test func pingNeedsNoTokenAndServerInfoCounts() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let pong: WirePingResponse = try harness.connection.call(
            .ping,
            WirePingRequest.with {
                $0.payload = [1, 2, 3]
            },
            token: nil
        )
        #expect(pong.payload == [1, 2, 3] && pong.serving)
        let info: WireGetServerInfoResponse = try harness.call(.getServerInfo, WireGetServerInfoRequest())
        #expect(info.storage == "sqlite" && info.protocolVersion == 1 && !info.version.isEmpty)
        #expect(info.requestsTotal >= 2 && info.connectionsCurrent == 1 && info.connectionsTotal == 1)
        // Three more connections, two of them closed again: four served, two open.
        let others = try (0..<3).map { _ in try harness.server.connect() }
        for other in others { let _: WirePingResponse = try other.call(.ping, WirePingRequest(), token: nil) }
        others[0].close()
        others[1].close()
        var later = info
        for _ in 0..<200 where later.connectionsCurrent != 2 {
            later = try harness.call(.getServerInfo, WireGetServerInfoRequest())
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(later.connectionsCurrent == 2 && later.connectionsTotal == 4)
        others[2].close()
    }

    @Test func requestsThatAreNotTheirMessageAreRefused() throws {
        // Methods whose request has no fields still decode it: garbage is INVALID_ARGUMENT.
        let harness = try ServerHarness()
        defer { harness.finish() }
        for method in [WireMethod.getSettings, .getServerInfo, .ping, .listHabits] {
            let status = try harness.connection.rawCall(
                method.rawValue,
                message: [0xFF, 0xFF, 0xFF],
                token: harness.token
            )
            .status
            #expect(status.code == .invalidArgument, "\(method)")
            let name = "streak.v1." + method.rawValue.split(separator: "/").last! + "Request"
            #expect(status.message == "3 bytes are not a valid \(name) message", "\(method)")
        }
    }
}
