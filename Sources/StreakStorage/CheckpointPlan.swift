/// Decides, after each commit, who copies the write-ahead log back into the database: nobody
/// yet, the checkpointer's thread, or the committing thread itself.
///
/// SQLite restarts the log from its beginning only when a write transaction begins with every
/// frame already copied. A checkpoint on another thread copies the frames that existed when it
/// started, and under a steady stream of commits more arrive meanwhile: alone it never catches
/// up, the log grows without end, and every commit past the threshold starts another
/// checkpoint with its own sync of the database file. So the checkpointer's thread copies the
/// bulk, and once little is left (`tail` frames) the committing thread copies the rest between
/// two of its commits, when no commit can add to it: the next transaction restarts the log.
///
/// A reader that keeps an old snapshot can still keep the log from restarting (and the frames
/// after its snapshot from being copied); then nothing new is tried before the log grew by
/// another `tail` frames, so the attempts stay rare.
struct CheckpointPlan {
    /// Who copies the log after a commit.
    enum Action: Equatable {
        case none
        /// The checkpointer's thread, for the log of `cycle` (pass it back to `copied`).
        case inBackground(cycle: Int)
        /// The committing thread, now: it is what is left after the checkpointer's copy.
        case onCommitter
    }

    /// The log size, in frames, past which the log is copied back.
    let threshold: Int32
    /// The most frames the committing thread copies itself.
    let tail: Int32
    /// Whether the checkpointer's thread is copying.
    private var backgroundRunning = false
    /// Counts the log's restarts: a background copy of an earlier log says nothing of this one.
    private(set) var cycle = 0
    /// Frames of the current log known to be in the database.
    private var copiedFrames: Int32 = 0
    private var lastFrames: Int32 = 0
    private var nextAttempt: Int32

    init(threshold: Int32, tail: Int32) {
        precondition(threshold > 0 && tail > 0, "a checkpoint threshold and tail must be positive")
        self.threshold = threshold
        self.tail = tail
        nextAttempt = threshold
    }

    /// After a commit that left the log `frames` long.
    mutating func committed(logFrames frames: Int32) -> Action {
        if frames < lastFrames {
            // The log restarted from its beginning: everything before is in the database.
            cycle += 1
            copiedFrames = 0
            nextAttempt = threshold
        }
        lastFrames = frames
        guard frames >= nextAttempt, !backgroundRunning else { return .none }
        if frames - copiedFrames <= tail {
            // Tried once per `tail` frames when the log does not restart after it.
            nextAttempt = frames + tail
            return .onCommitter
        }
        backgroundRunning = true
        return .inBackground(cycle: cycle)
    }

    /// A copy ended: the background one (`cycle` as its action gave) or the committer's (nil),
    /// with the frames of the log it found already in the database when it finished.
    mutating func copied(frames: Int32, cycle copiedCycle: Int?) {
        if copiedCycle != nil { backgroundRunning = false }
        guard copiedCycle == nil || copiedCycle == cycle else { return }
        // A background copy that got no further: a reader holds the frames back.
        if copiedCycle != nil && frames <= copiedFrames { nextAttempt = lastFrames + tail }
        copiedFrames = max(copiedFrames, frames)
    }
}
