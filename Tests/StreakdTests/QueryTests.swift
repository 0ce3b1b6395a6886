import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// GetDay, GetHeatmap, GetStreak, GetWeekdayChart and GetMonthPage over one known history:
/// five habits from 2024-03-01; 03-03 all five, 03-04 one, 03-05 four.
@Suite struct QueryTests {
    static func seeded() throws -> (ServerHarness, [Int64]) {
        let harness = try ServerHarness()
        let ids = try (1...5).map { try harness.createHabit("habit \($0)", on: day("2024-03-01")).id }
        let _: WireBatchCompletionsResponse = try harness.call(
            .batchCompletions,
            WireBatchCompletionsRequest.with {
                $0.record =
                    ids.map { id in
                        WireCompletion.with {
                            $0.habitId = id
                            $0.date = day("2024-03-03")
                        }
                    }
                    + [
                        WireCompletion.with {
                            $0.habitId = ids[0]
                            $0.date = day("2024-03-04")
                        }
                    ]
                    + ids.prefix(4).map { id in
                        WireCompletion.with {
                            $0.habitId = id
                            $0.date = day("2024-03-05")
                        }
                    }
            }
        )
        return (harness, ids)
    }

    @Test func dayDetailHasTheAccessibilityLabel() throws {
        let (harness, ids) = try Self.seeded()
        defer { harness.finish() }
        let answer: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-03-05") }
        )
        let detail = try #require(answer.day)
        #expect(detail.accessibilityLabel == "March 5: 80% completed, 4 of 5 habits")
        #expect(detail.completedHabits.map(\.id) == Array(ids.prefix(4)))
        #expect(detail.completedHabits.first?.name == "habit 1")
        #expect(detail.completed == 4 && detail.active == 5 && detail.percent == 80 && detail.level == 2)
        #expect(detail.contributing)
        let missing = try harness.status(.getDay, WireGetDayRequest())
        #expect(missing.code == .invalidArgument)
    }

    @Test func heatmapColumnsCellsLabelsAndLegend() throws {
        let (harness, _) = try Self.seeded()
        defer { harness.finish() }
        let answer: WireGetHeatmapResponse = try harness.call(
            .getHeatmap,
            WireGetHeatmapRequest.with {
                $0.from = day("2024-03-01")
                $0.to = day("2024-03-31")
                $0.asOf = day("2024-03-06")
                $0.weekStart = WireWeekStart.with { $0.kind = .weekday(.monday) }
                $0.accessibilityLabels = true
            }
        )
        let heatmap = try #require(answer.heatmap)
        #expect(heatmap.from == day("2024-03-01") && heatmap.to == day("2024-03-31"))
        // Mar 1 2024 is a Friday: five Monday-started columns reach Sunday Mar 31.
        #expect(heatmap.weeks.count == 5)
        #expect(heatmap.weeks.allSatisfy { $0.cells.count == 7 })
        #expect(
            heatmap.weeks.map(\.start)
                == ["2024-03-01", "2024-03-04", "2024-03-11", "2024-03-18", "2024-03-25"].map(day)
        )
        let first = heatmap.weeks[0].cells
        #expect(first.prefix(4).allSatisfy { !$0.present })
        #expect(first[4].present && first[4].date == day("2024-03-01") && first[4].active == 5 && first[4].level == 0)
        #expect(
            first[6].date == day("2024-03-03") && first[6].completed == 5 && first[6].level == 3
                && first[6].percent == 100
        )
        let second = heatmap.weeks[1].cells
        #expect(second[0].completed == 1 && second[0].level == 1)
        #expect(second[1].completed == 4 && second[1].level == 2 && second[1].percent == 80)
        #expect(second[1].accessibilityLabel == "March 5: 80% completed, 4 of 5 habits")
        #expect(second[2].present && second[2].date == day("2024-03-06"))
        // After as_of: absent, not 0 %.
        #expect(!second[3].present)
        #expect(heatmap.weeks[4].cells.allSatisfy { !$0.present })
        #expect(heatmap.monthLabels.map(\.label) == ["Mar"] && heatmap.monthLabels.map(\.weekIndex) == [0])
        #expect(heatmap.legend.map(\.level) == [0, 1, 2, 3])
    }

    @Test func defaultHeatmapCoversTwelveMonths() throws {
        let (harness, _) = try Self.seeded()
        defer { harness.finish() }
        let answer: WireGetHeatmapResponse = try harness.call(
            .getHeatmap,
            WireGetHeatmapRequest.with {
                $0.asOf = day("2024-03-06")
            }
        )
        let heatmap = try #require(answer.heatmap)
        #expect(heatmap.from == day("2023-04-01") && heatmap.to == day("2024-03-06"))
        #expect(heatmap.weekStart == .monday)
        #expect(heatmap.monthLabels.first?.label == "Apr" && heatmap.monthLabels.first?.weekIndex == 0)
        #expect(heatmap.monthLabels.count == 12)
    }

    @Test func streakAsOfADay() throws {
        let (harness, _) = try Self.seeded()
        defer { harness.finish() }
        let pending: WireGetStreakResponse = try harness.call(
            .getStreak,
            WireGetStreakRequest.with {
                $0.asOf = day("2024-03-06")
            }
        )
        #expect(pending.streak?.current == 3 && pending.streak?.todayPending == true)
        let broken: WireGetStreakResponse = try harness.call(
            .getStreak,
            WireGetStreakRequest.with {
                $0.asOf = day("2024-03-07")
            }
        )
        #expect(broken.streak?.current == 0 && broken.streak?.currentStart == nil)
        #expect(broken.streak?.longest == 3 && broken.streak?.longestEnd == day("2024-03-05"))
        // A threshold of 50 %: 03-04 (20 %) no longer contributes.
        let _: WireUpdateSettingsResponse = try harness.call(
            .updateSettings,
            WireUpdateSettingsRequest.with {
                $0.minPercent = 50
            }
        )
        let strict: WireGetStreakResponse = try harness.call(
            .getStreak,
            WireGetStreakRequest.with {
                $0.asOf = day("2024-03-06")
            }
        )
        #expect(strict.streak?.current == 1 && strict.streak?.longest == 1)
        #expect(strict.streak?.longestStart == day("2024-03-05"))
    }

    @Test func weekdayChartInLocaleOrder() throws {
        let (harness, ids) = try Self.seeded()
        defer { harness.finish() }
        let answer: WireGetWeekdayChartResponse = try harness.call(
            .getWeekdayChart,
            WireGetWeekdayChartRequest.with {
                $0.asOf = day("2024-03-06")
                $0.locale = "en_US"
                $0.includeTotal = true
            }
        )
        let chart = try #require(answer.chart)
        #expect(chart.series.count == 6)
        #expect(chart.series.allSatisfy { $0.counts.count == 7 })
        let first = try #require(chart.series.first { $0.habitId == ids[0] })
        #expect(first.counts.map(\.shortName) == ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
        #expect(first.counts.map(\.count) == [1, 1, 1, 0, 0, 0, 0])
        let total = try #require(chart.series.first { $0.total })
        #expect(total.counts.map(\.count) == [5, 1, 4, 0, 0, 0, 0])
        let german: WireGetWeekdayChartResponse = try harness.call(
            .getWeekdayChart,
            WireGetWeekdayChartRequest.with {
                $0.asOf = day("2024-03-06")
                $0.locale = "de_DE"
            }
        )
        #expect(german.chart?.series.first?.counts.first?.weekday == .monday)
    }

    @Test func monthPageHasFortyTwoDays() throws {
        let (harness, _) = try Self.seeded()
        defer { harness.finish() }
        let answer: WireGetMonthPageResponse = try harness.call(
            .getMonthPage,
            WireGetMonthPageRequest.with {
                $0.year = 2024
                $0.month = 3
                $0.asOf = day("2024-03-05")
                $0.selected = day("2024-03-04")
                $0.locale = "en_US"
            }
        )
        let page = try #require(answer.page)
        #expect(page.days.count == 42 && page.title == "March 2024")
        #expect(page.weekdaySymbols.first == "Sun" && page.weekStart == .sunday)
        // Mar 1 2024 is a Friday: five leading days of February.
        #expect(page.days.prefix(5).allSatisfy { !$0.inMonth } && page.days[5].date == day("2024-03-01"))
        let fifth = page.days[9]
        #expect(fifth.date == day("2024-03-05") && fifth.today && fifth.highlighted && fifth.level == 2)
        #expect(page.days[8].selected && page.days[7].level == 3)
        #expect(page.previousYear == 2024 && page.previousMonth == 2 && page.nextYear == 2024 && page.nextMonth == 4)
    }
}
