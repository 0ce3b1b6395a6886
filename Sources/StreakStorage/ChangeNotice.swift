import StreakCore

/// What a server tells the others sharing its PostgreSQL database about a commit: whose data
/// changed and on which days, sent with `pg_notify` inside the transaction, so that it is
/// delivered exactly when the commit is visible, and never for a rolled-back one.
///
/// Payload (text, under PostgreSQL's 8,000 bytes): `v1 ORIGIN USER DAYS`, where DAYS is a comma
/// list of day numbers, or `*` when habits or settings changed (or too many days to list).
struct ChangeNotice: Hashable, Sendable {
    /// The channel every server listens on.
    static let channel = "streakd_changes"
    /// More days than this are sent as `*`, keeping the payload far under 8,000 bytes.
    static let maximumDays = 500

    /// The server that committed it (a server ignores its own notices).
    var origin: String
    /// The user whose data changed.
    var user: UserID
    /// The days whose completions changed; nil: anything of the user's may have changed.
    var days: [CivilDate]?

    var payload: String {
        let list = days.map { $0.map { String($0.dayNumber) }.joined(separator: ",") } ?? "*"
        return "v1 \(origin) \(user) \(list)"
    }

    init(origin: String, user: UserID, days: [CivilDate]?) {
        self.origin = origin
        self.user = user
        self.days = days.flatMap { $0.count > Self.maximumDays ? nil : $0 }
    }

    /// Parses a payload; nil for one this version does not understand.
    init?(payload: String) {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "v1", let user = UserID(fields[2]) else { return nil }
        origin = String(fields[1])
        self.user = user
        if fields[3] == "*" {
            days = nil
        } else {
            var days: [CivilDate] = []
            for number in fields[3].split(separator: ",") {
                guard let value = Int(number), let day = try? CivilDate(dayNumber: value) else { return nil }
                days.append(day)
            }
            self.days = days
        }
    }

    /// The notices for a committed batch: one per user whose data a successful write changed.
    static func notices(
        origin: String,
        writes: [PendingWrite],
        results: [Result<StoreWriteResult, StorageError>]
    ) -> [ChangeNotice] {
        var order: [UserID] = []
        var days: [UserID: Set<CivilDate>?] = [:]
        for (pending, result) in zip(writes, results) {
            guard case .success(let stored) = result else { continue }
            let changed: Set<CivilDate>?
            switch (pending.write, stored) {
            case (.completions(let changes), .completions(let flags)):
                changed = Set(zip(changes, flags).filter(\.1).map(\.0.date))
                if changed?.isEmpty == true { continue }
            default:
                changed = nil
            }
            if days[pending.user] == nil { order.append(pending.user) }
            switch (days[pending.user], changed) {
            case (.none, _): days[pending.user] = .some(changed)
            case (.some(.some(let known)), .some(let more)): days[pending.user] = .some(known.union(more))
            default: days[pending.user] = .some(nil)
            }
        }
        return order.map { user in
            ChangeNotice(origin: origin, user: user, days: days[user]!.map { $0.sorted() })
        }
    }
}

extension ChangeNotice {
    /// Tells the other servers, inside a batch's transaction, whose data it changed: the
    /// group-commit writer's `BeforeCommit` of a PostgreSQL store.
    struct Sender: Sendable {
        /// The store's name in its notices.
        let origin: String

        func send(
            _ connection: any SQLSession,
            writes: [PendingWrite],
            results: [Result<StoreWriteResult, StorageError>]
        ) throws(StorageError) {
            let notices = ChangeNotice.notices(origin: origin, writes: writes, results: results)
            guard !notices.isEmpty else { return }
            // One statement for the whole batch: a text array of the payloads (which hold no
            // quotes or backslashes, so quoting each element is enough).
            let payloads = "{" + notices.map { "\"\($0.payload)\"" }.joined(separator: ",") + "}"
            try connection.query(
                "SELECT pg_notify(?, payload) FROM unnest(?::text[]) AS payload",
                [.text(ChangeNotice.channel), .text(payloads)]
            )
        }
    }
}
