import StreakStorage
import Synchronization

/// The ExportData streams open on this server, counted per user.
///
/// An open export holds a copy of its user's records (4 bytes a record, `HabitDayList`) and up
/// to its share of the connection's output until it ends, however slowly its client reads, so
/// a user may have only `maximumStreamsPerUser` open at once.
final class ExportSlots: Sendable {
    /// One open export's place, given back once when it ends.
    final class Slot: Sendable {
        private let release: @Sendable () -> Void
        private let released = Atomic<Bool>(false)

        fileprivate init(release: @escaping @Sendable () -> Void) {
            self.release = release
        }

        /// Gives the place back; later calls do nothing.
        func end() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            release()
        }
    }

    /// The most ExportData streams one user may have open on this server. One export is a whole
    /// backup; four leave room for a retry while an abandoned connection's stream is still open,
    /// and for a second device, and keep what one user's stalled exports hold to four copies of
    /// their records (a 100,000-record history: about 400 KB each).
    static let maximumStreamsPerUser = 4

    private let open = Mutex<[UserID: Int]>([:])

    /// Takes a place for an export of `user`.
    /// - Throws: RESOURCE_EXHAUSTED when the user already has `maximumStreamsPerUser` open.
    func take(for user: UserID) throws(ServiceError) -> Slot {
        try open.withLock { open throws(ServiceError) in
            let count = open[user, default: 0]
            guard count < Self.maximumStreamsPerUser else {
                throw ServiceError(
                    .resourceExhausted,
                    "a user may have at most \(Self.maximumStreamsPerUser) ExportData streams open on one server; "
                        + "finish or cancel one first"
                )
            }
            open[user] = count + 1
        }
        return Slot { [self] in
            open.withLock { open in
                let count = open[user, default: 0] - 1
                open[user] = count > 0 ? count : nil
            }
        }
    }
}
