import StreakCore
import StreakWire

extension WireMonthPage {
    /// The wire form of a month page (navigation 0/0 where there is no previous or next month).
    init(_ page: MonthPage) {
        self.init()
        year = Int32(page.month.year)
        month = Int32(page.month.month)
        title = page.title
        weekdaySymbols = page.weekdaySymbols
        weekStart = page.weekStart
        days = page.days.map { day in
            var wire = WireMonthDay()
            wire.date = day.date
            wire.day = Int32(day.day)
            wire.inMonth = day.inMonth
            wire.today = day.isToday
            wire.selected = day.isSelected
            wire.highlighted = day.isHighlighted
            wire.level = Int32(day.level.rawValue)
            wire.rest = day.isRestDay
            return wire
        }
        previousYear = Int32(page.previous?.year ?? 0)
        previousMonth = Int32(page.previous?.month ?? 0)
        nextYear = Int32(page.next?.year ?? 0)
        nextMonth = Int32(page.next?.month ?? 0)
    }
}
