/// Where a streak summary's walk stood just before a day: the run it was in and the longest run
/// so far. A summary that starts from it walks only the days since, so a write's answer costs
/// the same for a ten-year history as for a month's.
///
/// It is valid only for the index it was taken from, as that index changes: `CompletionIndex`
/// keeps it and drops it on every change that could alter a day before `boundary` (a completion
/// or skip recorded or removed before it, any change of the habits' days, their schedules or the
/// rest periods; a rename keeps it, and a schedule change dated after it still drops it). It is of one of the
/// two walks: over the days with completions (no schedules, skips or rest periods), or over every
/// day from the first completion, bridging rest days.
public struct StreakCheckpoint: Hashable, Sendable {
    /// The walk covered the days before this day number (those with completions, or every day
    /// from the first completion), and no other.
    let boundary: Int
    /// The index's count of changes when the checkpoint was taken (`StreakCheckpointSlot`): an
    /// index keeps only a checkpoint taken from it as it is.
    let changes: UInt64
    /// How many days with completions lie before `boundary`: a check that the checkpoint is
    /// used with the index it came from.
    let daysBefore: Int
    /// The threshold the days were judged by.
    let threshold: StreakThreshold
    /// Whether it is of the walk that bridges rest days.
    let bridging: Bool
    /// The walk's state after those days.
    let state: StreakWalk

    /// The first day the checkpoint's walk did not cover.
    public var boundaryDate: CivilDate { CivilDate(validDayNumber: boundary) }

    /// Whether a summary as of `asOf` under `threshold` can start from the checkpoint: one for
    /// that threshold, covering only days before `asOf` (which is judged apart: it never breaks a
    /// run). The walk must be the checkpoint's too.
    public func isUsable(for threshold: StreakThreshold, asOf: CivilDate) -> Bool {
        self.threshold == threshold && boundary <= asOf.dayNumber
    }

    /// How many days before `asOf` a new checkpoint is taken: changes of the last month keep
    /// it, and a summary walks about this many days past it. (A longer reach keeps it through
    /// older corrections but lengthens every summary: the walk that bridges rest days costs about
    /// 0.1 µs a day.)
    static let reach = 32
}

/// The state of a streak walk over days in ascending order (see `StreakCalculator.summary`): the
/// current run's first and last day and its contributing days, whether a day since broke it, and
/// the longest run.
struct StreakWalk: Hashable, Sendable {
    var runStart = 0
    var runEnd = Int.min
    var runLength = 0
    var broken = true
    var longest = 0
    var longestStart = 0
    var longestEnd = 0

    /// Adds a contributing day of the walk over days with completions, later than every day
    /// added before: a day after a gap starts a new run.
    mutating func add(_ day: Int) {
        if day != runEnd + 1 { broken = true }
        addBridging(day)
    }

    /// Adds a contributing day of the walk over every day, later than every day added before: it
    /// extends the run unless a day since broke it.
    mutating func addBridging(_ day: Int) {
        if broken {
            runStart = day
            runLength = 0
            broken = false
        }
        runEnd = day
        runLength += 1
        if runLength >= longest {
            longest = runLength
            longestStart = runStart
            longestEnd = runEnd
        }
    }
}

/// A value kept beside an index's data that is not part of it: every two are equal, so an index
/// with a checkpoint equals the same index without one.
struct StreakCheckpointSlot: Hashable, Sendable {
    private(set) var checkpoint: StreakCheckpoint?
    /// Changes of the index so far: a checkpoint taken before the last of them is refused.
    private(set) var changes: UInt64 = 0

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    /// Notes a change of the day number `day` alone: the checkpoint goes when its walk covered it.
    mutating func noteChange(onDayNumber day: Int) {
        changes &+= 1
        if let checkpoint, day < checkpoint.boundary { self.checkpoint = nil }
    }

    /// Notes a change that may reach any day: the checkpoint goes.
    mutating func noteChangeOfAnyDay() {
        changes &+= 1
        checkpoint = nil
    }

    /// Keeps `checkpoint` if it was taken from the index as it is now, unless one of the same walk
    /// and threshold is kept that reaches later (a summary of a past day finished last).
    mutating func keep(_ checkpoint: StreakCheckpoint) {
        guard checkpoint.changes == changes else { return }
        if let kept = self.checkpoint, kept.bridging == checkpoint.bridging, kept.threshold == checkpoint.threshold,
            kept.boundary > checkpoint.boundary
        {
            return
        }
        self.checkpoint = checkpoint
    }
}
