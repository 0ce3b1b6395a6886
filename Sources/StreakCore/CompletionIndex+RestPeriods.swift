extension CompletionIndex {
    /// Adds a rest period. - Returns: whether an equal one was not there already.
    @discardableResult
    public mutating func addRestPeriod(_ period: RestPeriod) -> Bool {
        guard !restPeriods.contains(period) else { return false }
        replaceRestPeriods(restPeriods + [period])
        return true
    }

    /// Removes one rest period equal to `period`. - Returns: whether there was one.
    @discardableResult
    public mutating func removeRestPeriod(_ period: RestPeriod) -> Bool {
        guard let position = restPeriods.firstIndex(of: period) else { return false }
        var periods = restPeriods
        periods.remove(at: position)
        replaceRestPeriods(periods)
        return true
    }

    /// Whether `date` lies in a rest period.
    public func isInRestPeriod(_ date: CivilDate) -> Bool {
        isResting(onDayNumber: date.dayNumber)
    }

    /// Whether the day number lies in a rest period (binary search over the merged ranges).
    func isResting(onDayNumber day: Int) -> Bool {
        let slot = restIntervals.partitioningIndex { $0.upperBound >= day }
        return slot < restIntervals.count && restIntervals[slot].lowerBound <= day
    }

    /// Day-number ranges of `periods`, merged where they overlap or touch, ascending.
    static func merged(_ periods: [RestPeriod]) -> [ClosedRange<Int>] {
        var merged: [ClosedRange<Int>] = []
        for range in periods.map({ $0.from.dayNumber...$0.to.dayNumber }).sorted(by: { $0.lowerBound < $1.lowerBound })
        {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...Swift.max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
