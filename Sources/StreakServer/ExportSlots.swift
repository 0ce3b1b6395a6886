import StreakFraming
import StreakStorage
import Synchronization

/// The ExportData streams open on this server: counted per user, and known by their bearer token
/// so that the periodic token check ends those whose token was revoked, as it ends Watch streams.
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

    private struct OpenExport {
        var user: UserID
        var bearer: String
        /// Ends the stream with a status.
        var terminate: @Sendable (Status) -> Void
        var slot: Slot
    }

    private struct Contents {
        var counts: [UserID: Int] = [:]
        var open: [UInt64: OpenExport] = [:]
        var nextKey: UInt64 = 0
    }

    private let contents = Mutex(Contents())

    /// Takes a place for an export of `user` made with `bearer`.
    /// - Parameter terminate: ends the export's stream with the status given (called by
    ///   `end(bearer:status:)`, outside any lock, which then gives the place back).
    /// - Throws: RESOURCE_EXHAUSTED when the user already has `maximumStreamsPerUser` open.
    func take(
        for user: UserID,
        bearer: String,
        terminate: @escaping @Sendable (Status) -> Void
    ) throws(ServiceError) -> Slot {
        let key = try contents.withLock { contents throws(ServiceError) -> UInt64 in
            let count = contents.counts[user, default: 0]
            guard count < Self.maximumStreamsPerUser else {
                throw ServiceError(
                    .resourceExhausted,
                    "a user may have at most \(Self.maximumStreamsPerUser) ExportData streams open on one server; "
                        + "finish or cancel one first"
                )
            }
            contents.counts[user] = count + 1
            contents.nextKey &+= 1
            return contents.nextKey
        }
        let slot = Slot { [self] in
            contents.withLock { contents in
                contents.open[key] = nil
                let count = contents.counts[user, default: 0] - 1
                contents.counts[user] = count > 0 ? count : nil
            }
        }
        contents.withLock { contents in
            contents.open[key] = OpenExport(user: user, bearer: bearer, terminate: terminate, slot: slot)
        }
        return slot
    }

    /// The bearer tokens of the open exports, with the user each was authenticated as.
    func bearers() -> [String: UserID] {
        contents.withLock { contents in
            var result: [String: UserID] = [:]
            for export in contents.open.values { result[export.bearer] = export.user }
            return result
        }
    }

    /// Ends every open export made with `bearer` with `status`.
    func end(bearer: String, status: Status) {
        let ending = contents.withLock { contents in contents.open.values.filter { $0.bearer == bearer } }
        for export in ending {
            export.terminate(status)
            // A stream waiting for its client to read is not running: nothing else would end the slot.
            export.slot.end()
        }
    }
}
