import StreakCore

/// What a server tells the others sharing its PostgreSQL database about a commit: whose data
/// changed, and which parts of it, written to the change log inside the transaction (`ChangeLog`),
/// so that it is there exactly when the commit is visible, and never for a rolled-back one, and
/// announced with a notification after the commit. The others read only those parts again.
///
/// Payload (text, under PostgreSQL's 8,000 bytes): `v2 ORIGIN USER HABITS DAYS`, where HABITS is
/// `h` when habits (with their schedules), rest periods or settings changed and `-` otherwise,
/// and DAYS is a comma list of the day numbers whose completions or skips changed, `-` for none,
/// or `*` when anything may have changed (an import, or more days than `maximumDays`). The
/// payload of earlier servers, `v1 ORIGIN USER DAYS` (DAYS a list, or `*` for anything but
/// completions), is still understood: a list is those days, `*` is everything.
struct ChangeNotice: Hashable, Sendable {
    /// The channel every server listens on.
    static let channel = "streakd_changes"
    /// How the origins of servers that write the change log begin (`ChangeLog`): their
    /// notifications only say that there are rows to read. (Earlier servers' origins are bare
    /// UUIDs, and their notifications are the notices themselves.)
    static let loggingOriginPrefix = "log-"

    /// Whether the server named `origin` writes its notices to the change log.
    static func logsChanges(_ origin: String) -> Bool {
        origin.hasPrefix(loggingOriginPrefix)
    }
    /// More days than this are sent as `*`, keeping the payload far under 8,000 bytes.
    static let maximumDays = 500

    /// The server that committed it (a server ignores its own notices).
    var origin: String
    /// The user whose data changed.
    var user: UserID
    /// What changed.
    var change: ChangedData

    var payload: String {
        let habits = change.habitsOrSettings ? "h" : "-"
        let days =
            change.everything
            ? "*" : change.days.isEmpty ? "-" : change.days.map { String($0.dayNumber) }.joined(separator: ",")
        return "v2 \(origin) \(user) \(change.everything ? "h" : habits) \(days)"
    }

    init(origin: String, user: UserID, change: ChangedData) {
        self.origin = origin
        self.user = user
        self.change = change.days.count > Self.maximumDays ? .all : change
    }

    /// The origin a payload names (its second field, in every version), without parsing the rest.
    static func origin(of payload: String) -> Substring? {
        let fields = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        return fields.count >= 2 ? fields[1] : nil
    }

    /// Parses a payload; nil for one this version does not understand.
    init?(payload: String) {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 4, let user = UserID(fields[2]), !fields[1].isEmpty else { return nil }
        origin = String(fields[1])
        self.user = user
        switch (fields[0], fields.count) {
        case ("v1", 4):
            guard fields[3] != "*" else {
                change = .all
                return
            }
            guard let days = Self.days(fields[3]), !days.isEmpty else { return nil }
            change = ChangedData(days: days)
        case ("v2", 5):
            guard fields[3] == "h" || fields[3] == "-" else { return nil }
            if fields[4] == "*" {
                change = .all
            } else {
                guard let days = fields[4] == "-" ? [] : Self.days(fields[4]) else { return nil }
                change = ChangedData(days: days, habitsOrSettings: fields[3] == "h")
                guard !change.isEmpty else { return nil }
            }
        default:
            return nil
        }
    }

    /// A payload this version does not understand (a later version's, or a damaged one) that
    /// still names its origin and user the way every version does (`VERSION ORIGIN USER ...`):
    /// anything of that user may have changed. nil when it does not even name a user.
    init?(unknownPayload payload: String) {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 3, !fields[1].isEmpty, let user = UserID(fields[2]) else { return nil }
        self.init(origin: String(fields[1]), user: user, change: .all)
    }

    /// The days of a comma list of day numbers, ascending; nil when one is not a day.
    private static func days(_ list: Substring) -> [CivilDate]? {
        var days: [CivilDate] = []
        for number in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Int(number), let day = try? CivilDate(dayNumber: value) else { return nil }
            days.append(day)
        }
        return Set(days).sorted()
    }

    /// The notices for a committed batch: one per user whose data a successful write changed.
    static func notices(
        origin: String,
        writes: [PendingWrite],
        results: [Result<StoreWriteResult, StorageError>]
    ) -> [ChangeNotice] {
        var order: [UserID] = []
        var habits: [UserID: Bool] = [:]
        var days: [UserID: Set<CivilDate>?] = [:]
        for (pending, result) in zip(writes, results) {
            guard case .success(let stored) = result else { continue }
            // nil: anything may have changed.
            var changedDays: Set<CivilDate>? = []
            var changedHabits = true
            switch (pending.write, stored) {
            case (.completions(let changes), .completions(let flags)):
                changedDays = Set(zip(changes, flags).filter(\.1).map(\.0.date))
                changedHabits = false
                if changedDays?.isEmpty == true { continue }
            case (.deleteHabit, .deletedHabit(_, let completions, let skips)):
                changedDays = Set(completions + skips)
            case (.importData, _):
                changedDays = nil
            default:
                break
            }
            if days[pending.user] == nil {
                order.append(pending.user)
                days[pending.user] = .some([])
            }
            habits[pending.user, default: false] = habits[pending.user, default: false] || changedHabits
            switch (days[pending.user], changedDays) {
            case (.some(.some(let known)), .some(let more)): days[pending.user] = .some(known.union(more))
            default: days[pending.user] = .some(nil)
            }
        }
        return order.map { user in
            let change: ChangedData =
                if let listed = days[user]!.map({ $0.sorted() }) {
                    ChangedData(days: listed, habitsOrSettings: habits[user] ?? false)
                } else {
                    .all
                }
            return ChangeNotice(origin: origin, user: user, change: change)
        }
    }
}

extension ChangeNotice {
    /// Tells the other servers whose data a batch changed: the group-commit writer's
    /// `BeforeCommit` of a PostgreSQL store. Inside the batch's transaction the notices become a
    /// row of the change log (`ChangeLog`); after the commit they are announced
    /// (`ChangeAnnouncer`), which wakes the others to read the log.
    struct Sender: Sendable {
        /// The store's name in its notices.
        let origin: String
        /// Sends the notification after the commit; nil: none (the others' timers find the rows).
        let announcer: ChangeAnnouncer?

        /// The statement that logs the batch's notices, and what announces them once committed;
        /// nil when no write changed anything.
        func statement(
            writes: [PendingWrite],
            results: [Result<StoreWriteResult, StorageError>]
        ) -> GroupCommitWriter.CommitRecord? {
            let notices = ChangeNotice.notices(origin: origin, writes: writes, results: results)
            guard !notices.isEmpty else { return nil }
            let announced = notices.map { ChangeAnnouncer.Announced($0) }
            return GroupCommitWriter.CommitRecord(
                statement: ChangeLog.insert(origin: origin, payloads: announced.map(\.payload)),
                afterCommit: { [announcer] in announcer?.announce(announced) }
            )
        }
    }
}
