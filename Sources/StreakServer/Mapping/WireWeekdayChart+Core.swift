import StreakCore
import StreakWire

extension WireWeekdayChart {
    /// The wire form of a weekday chart: every series carries its seven named counts.
    init(_ chart: WeekdayChart) {
        self.init()
        from = chart.from
        to = chart.to
        series = chart.series.map { one in
            var wire = WireWeekdaySeries()
            wire.habitId = one.habitID ?? 0
            wire.name = one.name
            wire.total = one.habitID == nil
            wire.counts = zip(chart.weekdays, one.counts).map { name, count in
                var entry = WireWeekdayCount()
                entry.weekday = name.weekday
                entry.shortName = name.shortName
                entry.count = Int32(count)
                return entry
            }
            return wire
        }
    }
}
