public import StreakCore

// The compact heatmap encoding of docs/PROTOCOL.md section 9: packing (the server) and unpacking
// into the classic `WireHeatmap` (the clients). Present cells are the days from `from` on, one per
// day, `days` of them; levels (2 bits) and percentages (1 byte) are per cell in date order; `active`
// and `excused` (active - due) are runs over the cells in row order, one varint a run (length * 8 +
// value, or length * 8 + 7 and the value in a second varint when it is 7 or more); `completed` is derived from
// the percentage and `due`, with the cells where that is wrong listed in `completed_exceptions`.
extension WirePackedHeatmap {
    /// Packs a heatmap. Accessibility labels and the legend are never carried (a decoder makes
    /// them); month labels only when `monthLabels` is true.
    public init(_ heatmap: Heatmap, monthLabels: Bool) {
        var cells: [PackedCell] = []
        cells.reserveCapacity(heatmap.weeks.count * 7)
        for week in heatmap.weeks {
            for case let cell? in week.cells { cells.append(PackedCell(cell)) }
        }
        self.init(
            from: heatmap.from,
            to: heatmap.to,
            weekStart: heatmap.weekStart,
            cells: cells,
            labels: monthLabels
                ? heatmap.monthLabels.map { WireMonthLabel(label: $0.text, weekIndex: Int32($0.weekIndex)) } : []
        )
    }

    /// Packs a classic heatmap answer (its present cells must be the days from `from` on, in date
    /// order, as every answer of the server is).
    /// - Throws: `WireError(.invalidValue)` for a heatmap that has no such form.
    public init(packing heatmap: WireHeatmap, monthLabels: Bool) throws(WireError) {
        guard let from = heatmap.from, let to = heatmap.to, let weekStart = heatmap.weekStart else {
            throw WireError(.invalidValue, "heatmap: from, to and week_start are required")
        }
        var cells: [PackedCell] = []
        for cell in heatmap.weeks.lazy.flatMap(\.cells) where cell.present {
            guard cell.date?.dayNumber == from.dayNumber + cells.count, cell.date.map({ $0 <= to }) ?? false else {
                throw WireError(.invalidValue, "heatmap: present cells are not the days from \(from) on")
            }
            guard cell.active >= 0, cell.due >= 0, cell.due <= cell.active, cell.completed >= 0,
                cell.completed <= cell.due, (0...3).contains(cell.level), (0...100).contains(cell.percent)
            else {
                throw WireError(.invalidValue, "heatmap: the cell of \(from) + \(cells.count) has impossible counts")
            }
            cells.append(
                PackedCell(
                    completed: Int(cell.completed),
                    active: Int(cell.active),
                    due: Int(cell.due),
                    level: Int(cell.level),
                    percent: Int(cell.percent)
                )
            )
        }
        self.init(
            from: from,
            to: to,
            weekStart: weekStart,
            cells: cells,
            labels: monthLabels ? heatmap.monthLabels : []
        )
    }

    init(from: CivilDate, to: CivilDate, weekStart: Weekday, cells: [PackedCell], labels: [WireMonthLabel]) {
        self.init()
        self.from = from
        self.to = to
        self.weekStart = weekStart
        days = UInt32(cells.count)
        levels = [UInt8](repeating: 0, count: (cells.count + 3) / 4)
        percents.reserveCapacity(cells.count)
        for (index, cell) in cells.enumerated() {
            levels[index >> 2] |= UInt8(cell.level & 3) << (2 * (index & 3))
            percents.append(UInt8(cell.percent))
            if Self.derivedCompleted(percent: cell.percent, due: cell.due) != cell.completed {
                PackedVarint.append(UInt32(index), to: &completedExceptions)
                PackedVarint.append(UInt32(cell.completed), to: &completedExceptions)
            }
        }
        let order = RowOrder(count: cells.count, lead: from.weekday.offset(from: weekStart))
        active = Self.runs(order.lazy.map { cells[$0].active })
        excused = Self.runs(order.lazy.map { cells[$0].active - cells[$0].due })
        monthLabels = labels
    }

    /// The classic heatmap these cells encode: weeks from the one holding `from` to the one holding
    /// `to`, seven cells each (absent outside the present days), the standard legend, the month
    /// labels carried (none unless the request asked), and accessibility labels when asked (they
    /// are English and follow from the counts, as the server's).
    /// - Throws: `WireError(.invalidValue)` naming the first thing that does not decode.
    public func unpacked(accessibilityLabels: Bool = false) throws(WireError) -> WireHeatmap {
        let (from, to, weekStart, count) = try validatedHeader()
        let lead = from.weekday.offset(from: weekStart)
        let cells = try decodedCells(from: from, count: count, lead: lead, accessibilityLabels: accessibilityLabels)
        var heatmap = WireHeatmap()
        heatmap.from = from
        heatmap.to = to
        heatmap.weekStart = weekStart
        heatmap.weeks = Self.weeks(of: cells, from: from, to: to, lead: lead)
        heatmap.monthLabels = monthLabels
        heatmap.legend = LegendEntry.standard.map {
            WireLegendEntry(
                level: Int32($0.level.rawValue),
                minPercent: Int32($0.minPercent),
                maxPercent: Int32($0.maxPercent),
                description: $0.description
            )
        }
        return heatmap
    }

    /// The range, the week start and the number of days, once the fields that carry them agree
    /// with each other (the levels' and percentages' lengths, the levels' unused bits).
    func validatedHeader() throws(WireError) -> (
        from: CivilDate, to: CivilDate, weekStart: Weekday, days: Int
    ) {
        guard let from, let to else { throw Self.error("from and to are required") }
        guard let weekStart else { throw Self.error("week_start is required") }
        guard from <= to, from.days(to: to) < HeatmapOptions.maximumDays else {
            throw Self.error("the range \(from) to \(to) is not 1...\(HeatmapOptions.maximumDays) days")
        }
        let count = Int(days)
        guard count <= from.days(to: to) + 1 else { throw Self.error("days \(count) is more than the range holds") }
        guard levels.count == (count + 3) / 4 else {
            throw Self.error("levels has \(levels.count) bytes, not \((count + 3) / 4)")
        }
        if count % 4 != 0, levels[levels.count - 1] >> (2 * (count % 4)) != 0 {
            throw Self.error("levels: the unused bits of the last byte are not 0")
        }
        guard percents.count == count else { throw Self.error("percents has \(percents.count) bytes, not \(count)") }
        return (from, to, weekStart, count)
    }

    /// The present days' counts, in date order from `from`: the runs and exceptions expanded, each
    /// cell's counts checked against the others.
    func packedCells(from: CivilDate, count: Int, lead: Int) throws(WireError) -> [PackedCell] {
        let order = RowOrder(count: count, lead: lead)
        let activeCounts = try Self.values(ofRuns: active, order: order, field: "active")
        let excusedCounts = try Self.values(ofRuns: excused, order: order, field: "excused")
        let exceptions = try Self.exceptions(completedExceptions, days: count)
        var nextException = exceptions.startIndex

        var cells: [PackedCell] = []
        cells.reserveCapacity(count)
        for index in 0..<count {
            let percent = Int(percents[index])
            guard percent <= 100 else { throw Self.error("percents: \(percent) for \(Self.date(from, index))") }
            let active = activeCounts[index]
            guard excusedCounts[index] <= active else {
                throw Self.error("excused: more than active on \(Self.date(from, index))")
            }
            let due = active - excusedCounts[index]
            var completed = Self.derivedCompleted(percent: percent, due: due)
            if nextException < exceptions.endIndex, exceptions[nextException].index == index {
                completed = exceptions[nextException].completed
                nextException += 1
            }
            guard completed <= due, due <= Int(Int32.max) else {
                throw Self.error("completed: more than due on \(Self.date(from, index))")
            }
            let level = Int((levels[index >> 2] >> (2 * (index & 3))) & 3)
            cells.append(PackedCell(completed: completed, active: active, due: due, level: level, percent: percent))
        }
        return cells
    }

    /// The present days' classic cells, in date order from `from`.
    private func decodedCells(
        from: CivilDate,
        count: Int,
        lead: Int,
        accessibilityLabels: Bool
    ) throws(WireError) -> [WireHeatmapCell] {
        try packedCells(from: from, count: count, lead: lead).enumerated().map { index, counts in
            let date = Self.date(from, index)
            var cell = WireHeatmapCell()
            cell.present = true
            cell.date = date
            cell.completed = Int32(counts.completed)
            cell.active = Int32(counts.active)
            cell.level = Int32(counts.level)
            cell.percent = Int32(counts.percent)
            cell.due = Int32(counts.due)
            cell.rest = counts.active > 0 && counts.due == 0
            if accessibilityLabels {
                cell.accessibilityLabel = AccessibilityLabel.text(
                    date: date,
                    completed: counts.completed,
                    due: counts.due,
                    active: counts.active
                )
            }
            return cell
        }
    }

    /// Present day `index` (the decoder checked the range first).
    private static func date(_ from: CivilDate, _ index: Int) -> CivilDate {
        CivilDate(validatedDayNumber: from.dayNumber + index)
    }

    /// The weeks from the one holding `from` to the one holding `to`, seven cells each: `cells`
    /// (the days from `from` on) where present, absent cells before `from` and after the last.
    private static func weeks(
        of cells: [WireHeatmapCell],
        from: CivilDate,
        to: CivilDate,
        lead: Int
    ) -> [WireHeatmapWeek] {
        var weeks: [WireHeatmapWeek] = []
        var columnStart = from.dayNumber - lead
        while columnStart <= to.dayNumber {
            var week = WireHeatmapWeek()
            week.start = CivilDate(validatedDayNumber: max(columnStart, from.dayNumber))
            week.cells = (columnStart..<(columnStart + 7)).map { day in
                let index = day - from.dayNumber
                return index >= 0 && index < cells.count ? cells[index] : WireHeatmapCell()
            }
            weeks.append(week)
            columnStart += 7
        }
        return weeks
    }

    /// `completed` as the percentage and `due` give it: `(percent * due + 50) / 100`, exact whenever
    /// `due <= 100` (section 9.4).
    static func derivedCompleted(percent: Int, due: Int) -> Int {
        (percent * due + 50) / 100
    }

    /// Run-length encoding, each run as long as it goes, one varint a run: `length * 8 + value`
    /// for a value of 0...6, or `length * 8 + 7` followed by the value as a second varint.
    private static func runs(_ values: some Sequence<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        var current = 0
        var length = 0
        func flush() {
            guard length > 0 else { return }
            PackedVarint.append(UInt32(length) << 3 | UInt32(min(current, 7)), to: &bytes)
            if current >= 7 { PackedVarint.append(UInt32(current), to: &bytes) }
        }
        for value in values {
            if length > 0 && value == current {
                length += 1
                continue
            }
            flush()
            current = value
            length = 1
        }
        flush()
        return bytes
    }

    /// The value of each cell (by date-order index) from runs in row `order`.
    private static func values(ofRuns bytes: [UInt8], order: RowOrder, field: String) throws(WireError) -> [Int] {
        var values = [Int](repeating: 0, count: order.count)
        var reader = PackedVarintReader(bytes)
        var cells = order.makeIterator()
        var position = 0
        while !reader.isAtEnd {
            let run = try next(&reader, field)
            let length = run >> 3
            let value = run & 7 == 7 ? try next(&reader, field) : run & 7
            guard length > 0 else { throw error("\(field): a run of length 0") }
            guard length <= order.count - position else {
                throw error("\(field): the runs cover more than \(order.count) cells")
            }
            // The guard above leaves at least `length` cells.
            for _ in 0..<length { values[cells.next()!] = value }
            position += length
        }
        guard position == order.count else {
            throw error("\(field): the runs cover \(position) of \(order.count) cells")
        }
        return values
    }

    /// `completed_exceptions`: (cell index, completed count) pairs, the indexes ascending.
    private static func exceptions(
        _ bytes: [UInt8],
        days: Int
    ) throws(WireError) -> [(index: Int, completed: Int)] {
        var exceptions: [(index: Int, completed: Int)] = []
        var reader = PackedVarintReader(bytes)
        var previous = -1
        while !reader.isAtEnd {
            let index = try next(&reader, "completed_exceptions")
            let completed = try next(&reader, "completed_exceptions")
            guard index > previous, index < days else {
                throw error("completed_exceptions: cell \(index) is out of order or past the last")
            }
            exceptions.append((index, completed))
            previous = index
        }
        return exceptions
    }

    private static func next(_ reader: inout PackedVarintReader, _ field: String) throws(WireError) -> Int {
        do {
            return Int(try reader.next())
        } catch {
            throw Self.error("\(field): \(error)")
        }
    }

    private static func error(_ message: String) -> WireError {
        WireError(.invalidValue, "packed heatmap: \(message)")
    }
}

extension CivilDate {
    /// The date of a day number known to be in range (the decoder checked the range first).
    fileprivate init(validatedDayNumber day: Int) {
        self = (try? CivilDate(dayNumber: day)) ?? .min
    }
}
