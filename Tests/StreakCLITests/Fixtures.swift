import StreakCore
import StreakWire

/// Hand-built wire values for renderer tests (no server).
enum Fixtures {
    static func date(_ text: String) -> CivilDate {
        try! CivilDate(parsing: text)
    }

    /// A heatmap from `from` to `to` with Monday weeks; the level of a day is `levels(dayNumber)`.
    static func heatmap(from: String, to: String, level: (CivilDate) -> Int32) -> WireHeatmap {
        let first = date(from)
        let last = date(to)
        let start = first.dayNumber - first.weekday.offset(from: .monday)
        var weeks: [WireHeatmapWeek] = []
        var labels: [WireMonthLabel] = []
        var lastLabelIndex = -100
        var previousMonth = 0
        for weekStart in stride(from: start, through: last.dayNumber, by: 7) {
            var cells: [WireHeatmapCell] = []
            for offset in 0..<7 {
                let day = try! CivilDate(dayNumber: weekStart + offset)
                if day < first || day > last {
                    cells.append(WireHeatmapCell())
                } else {
                    let value = level(day)
                    cells.append(WireHeatmapCell(present: true, date: day, completed: value, active: 3, level: value))
                }
            }
            let columnStart = try! CivilDate(dayNumber: max(weekStart, first.dayNumber))
            let index = weeks.count
            if index == 0 || (columnStart.month != previousMonth && index - lastLabelIndex >= 3) {
                labels.append(WireMonthLabel(label: monthName(columnStart.month), weekIndex: Int32(index)))
                lastLabelIndex = index
            }
            previousMonth = columnStart.month
            weeks.append(WireHeatmapWeek(start: columnStart, cells: cells))
        }
        return WireHeatmap(from: first, to: last, weekStart: .monday, weeks: weeks, monthLabels: labels, legend: [])
    }

    static func monthName(_ month: Int) -> String {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]
    }

    /// A page of a 31-day month whose first day is the first cell, with only its day numbers,
    /// for the renderers' layout of titles and weekday names.
    static func plainMonthPage(year: Int32, month: Int32, title: String, weekdaySymbols: [String]) -> WireMonthPage {
        var page = WireMonthPage()
        page.year = year
        page.month = month
        page.title = title
        page.weekdaySymbols = weekdaySymbols
        page.days = (0..<42).map { index in
            var day = WireMonthDay()
            day.day = Int32(index % 31 + 1)
            day.inMonth = index < 31
            return day
        }
        return page
    }

    /// February 2024 with Monday first, today 2024-02-14, the 12th to the 14th highlighted.
    static var february2024: WireMonthPage {
        let first = date("2024-01-29")
        let days = (0..<42).map { offset -> WireMonthDay in
            let day = try! CivilDate(dayNumber: first.dayNumber + offset)
            return WireMonthDay(
                date: day,
                day: Int32(day.day),
                inMonth: day.month == 2,
                today: day == date("2024-02-14"),
                selected: false,
                highlighted: (12...14).contains(day.day) && day.month == 2,
                level: 0
            )
        }
        return WireMonthPage(
            year: 2024,
            month: 2,
            title: "February 2024",
            weekdaySymbols: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
            days: days,
            previousYear: 2024,
            previousMonth: 1,
            nextYear: 2024,
            nextMonth: 3,
            weekStart: .monday
        )
    }
}
