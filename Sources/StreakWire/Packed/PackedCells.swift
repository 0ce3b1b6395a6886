import StreakCore

/// The counts of one present cell, as the compact encoding carries them.
struct PackedCell {
    var completed: Int
    var active: Int
    var due: Int
    var level: Int
    var percent: Int
}

extension PackedCell {
    /// The counts of a cell the server built.
    init(_ cell: HeatmapCell) {
        self.init(
            completed: cell.completed,
            active: cell.active,
            due: cell.due,
            level: cell.level.rawValue,
            percent: cell.percentage
        )
    }
}

/// The present cells' indexes (0..<count, date order from `from`) in row order: the cells of the
/// week's first row (the week start's weekday) in date order, then the second row's, and so on.
/// Cell `i` is in row `(lead + i) % 7`, where `lead` is the offset of `from` from the week start.
/// The `active` and `excused` runs follow this order (docs/PROTOCOL.md section 9.3).
struct RowOrder: Sequence {
    /// The number of present cells.
    let count: Int
    /// The row of cell 0: 0...6.
    let lead: Int

    /// The order of `count` cells whose first is in row `lead` (0...6).
    init(count: Int, lead: Int) {
        precondition((0..<7).contains(lead), "a row is 0...6")
        self.count = count
        self.lead = lead
    }

    /// Walks the cells row by row.
    func makeIterator() -> Iterator { Iterator(count: count, lead: lead) }

    var underestimatedCount: Int { count }

    /// The cells of row 0 in date order, then of row 1, up to row 6.
    struct Iterator: IteratorProtocol {
        private let count: Int
        private let lead: Int
        private var row = 0
        /// The next cell of `row`, if below `count`.
        private var index: Int

        fileprivate init(count: Int, lead: Int) {
            self.count = count
            self.lead = lead
            index = (7 - lead) % 7
        }

        /// The next cell's index, or nil after the last cell of row 6.
        mutating func next() -> Int? {
            while row < 7 {
                if index < count {
                    defer { index += 7 }
                    return index
                }
                row += 1
                index = (row - lead + 7) % 7
            }
            return nil
        }
    }
}
