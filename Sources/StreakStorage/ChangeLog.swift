import FoundationEssentials

/// The change log of a PostgreSQL database that several servers share: each write transaction
/// inserts its `ChangeNotice` payloads as one row of `change_log` before its COMMIT, so that they
/// are durable exactly when the changes are, and never there for a rolled-back transaction. After
/// the commit the writer's server sends a notification (`ChangeAnnouncer`) that wakes the others;
/// they read the rows they have not seen yet (`Cursor`), on every notification and on a timer, so
/// that a notification lost (a crash between COMMIT and the notification) only delays a change.
///
/// Why not `pg_notify` inside the transaction: PostgreSQL takes one lock for the whole cluster
/// before a notifying transaction's commit record and holds it until that record is flushed, so
/// every notifying commit of every server waits for the others' commits and their flushes.
/// Inserting a row takes no such lock (the id comes from a sequence), and the notification after
/// the commit is sent with `synchronous_commit` off, so it holds that lock only briefly.
///
/// Ids come from a sequence and commit in any order: a row with a lower id may become visible
/// after one with a higher id was read. Each row carries its transaction's id (`xid`); a reader
/// keeps the oldest transaction still running when it last read (its snapshot's xmin) and reads
/// every row of a transaction from that one on that it has not seen: a row it has not seen yet
/// belongs to a transaction that was running then, or started later.
enum ChangeLog {
    /// The statement that logs a batch's notices inside its transaction.
    static func insert(origin: String, payloads: [String]) -> SQLStatement {
        SQLStatement(
            "INSERT INTO change_log (origin, payloads) VALUES (?, ?::text[])",
            [.text(origin), .text(textArray(payloads))]
        )
    }

    /// A PostgreSQL text array literal of payloads, which hold no quotes or backslashes (quoting
    /// each element is enough).
    static func textArray(_ payloads: [String]) -> String {
        "{" + payloads.map { "\"\($0)\"" }.joined(separator: ",") + "}"
    }

    /// The statement that sends `payloads` as notifications on `ChangeNotice.channel`, in a
    /// transaction of its own that does not wait for its commit record's flush: nothing depends
    /// on it being durable (the log is), and the NOTIFY lock is released at once.
    static func notify(_ payloads: [String]) -> SQLStatement {
        SQLStatement(
            """
            SELECT count(pg_notify(?, payload)) FROM unnest(?::text[]) AS payload,
                set_config('synchronous_commit', 'off', true) AS setting
            """,
            [.text(ChangeNotice.channel), .text(textArray(payloads))]
        )
    }

    /// The statement that deletes the rows older than `age` (any server may: the others' readers
    /// are long past them).
    static func prune(olderThan age: Duration) -> SQLStatement {
        SQLStatement(
            "DELETE FROM change_log WHERE created_at < now() - make_interval(secs => ?)",
            [.integer(age.components.seconds)]
        )
    }

    /// How long rows are kept: far longer than a reader ever lags (it reads every second; one
    /// that could not read this long reports that anything may have changed).
    static let retention: Duration = .seconds(300)

    /// A reader's place in the log: what it has seen, and the statement that reads what it has
    /// not.
    struct Cursor {
        /// The oldest transaction that was running when the log was last read (xid8, as a
        /// number); rows of older transactions were all visible then.
        private(set) var horizon: UInt64
        /// The rows read of transactions from `horizon` on: by id, their transaction.
        private(set) var seen: [Int64: UInt64] = [:]

        init(horizon: UInt64 = 0) {
            self.horizon = horizon
        }

        /// The query for the rows not seen yet: the first row holds the snapshot's xmin (and
        /// nulls), every other row a payload: xid, id, origin, payload. One statement, so the
        /// xmin is that of the snapshot the rows were read with.
        ///
        /// The rows seen are mostly a run of consecutive ids, so "not seen" is sent as below the
        /// lowest seen, above the highest, or one of the few ids between that were not seen
        /// (transactions still running, or rolled back): a long transaction that holds the
        /// horizon back makes the seen rows many, not the statement long.
        var statement: SQLStatement {
            let ids = seen.keys.sorted()
            var holes: [Int64] = []
            if let lowest = ids.first, let highest = ids.last, highest - lowest + 1 > ids.count {
                var next = lowest
                for id in ids {
                    while next < id {
                        holes.append(next)
                        next += 1
                    }
                    next = id + 1
                }
            }
            return SQLStatement(
                """
                SELECT pg_snapshot_xmin(pg_current_snapshot())::text, NULL::bigint, NULL::text, NULL::text
                UNION ALL
                SELECT log.xid::text, log.id, log.origin, payload FROM change_log AS log, unnest(log.payloads) AS payload
                WHERE log.xid >= ?::xid8 AND (log.id < ? OR log.id > ? OR log.id = ANY(?::bigint[]))
                """,
                [
                    .text(String(horizon)), .integer(ids.first ?? .max), .integer(ids.last ?? 0),
                    .integerArray(holes),
                ]
            )
        }

        /// The payloads of the rows not seen before, each with its origin, in id order; moves
        /// the cursor past them.
        mutating func advance(rows: [[SQLValue]]) throws(StorageError) -> [(origin: String, payload: String)] {
            var xmin: UInt64?
            var found: [(id: Int64, origin: String, payload: String)] = []
            for row in rows {
                guard row.count == 4, let xid = row[0].text.flatMap({ UInt64($0) }) else {
                    throw StorageError(.corrupt, "a change log row without a transaction id")
                }
                guard let id = row[1].integer else {
                    xmin = xid
                    continue
                }
                guard let origin = row[2].text, let payload = row[3].text else {
                    throw StorageError(.corrupt, "change log row \(id) without origin or payload")
                }
                seen[id] = xid
                found.append((id, origin, payload))
            }
            guard let xmin else { throw StorageError(.corrupt, "the change log read gave no snapshot") }
            // Never backwards (it is not, but a cursor that went back would only read more).
            horizon = max(horizon, xmin)
            seen = seen.filter { $0.value >= horizon }
            return found.sorted { $0.id < $1.id }.map { ($0.origin, $0.payload) }
        }
    }
}
