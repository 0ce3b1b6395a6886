import Dispatch
import StreakCore
import StreakTransport
import StreakWire

extension StreakService {
    /// The default and the largest number of records (completions and skips) in one export page.
    static let defaultExportPageSize = 4_096
    static let maximumExportPageSize = 65_536
    /// An export stops encoding pages while more than this much output waits for its client...
    static let exportOutputHighWater = 1 << 20
    /// ...and goes on when the connection's writes bring it down to this much (no polling meanwhile).
    static let exportOutputLowWater = exportOutputHighWater / 2

    /// ExportData: one consistent snapshot of the user's data, sent as pages at the pace the
    /// client reads them (a page is encoded only when less than `exportOutputHighWater` bytes
    /// wait for the client), so a long history never sits in memory encoded.
    ///
    /// A user has at most `ExportSlots.maximumStreamsPerUser` exports open on this server; each
    /// holds a compact copy of the records (`HabitDayList`), and a stalled one costs no CPU: it
    /// waits for the connection's output to drain (`Responder.resumeWhenOutputDrains`).
    func startExport(_ request: IncomingRequest, user: UserState, responder: Responder) throws {
        let message = try WireExportDataRequest(serializedBytes: request.message)
        let pageSize = message.pageSize == 0 ? Self.defaultExportPageSize : Int(message.pageSize)
        guard (1...Self.maximumExportPageSize).contains(pageSize) else {
            throw ServiceError.invalidArgument(
                "page_size \(message.pageSize) is outside 1...\(Self.maximumExportPageSize)"
            )
        }
        guard let bearer = BearerToken.from(request.metadata) else { throw ServiceError.unauthenticated }
        // The periodic token check ends the stream when its token is revoked.
        let slot = try exports.take(for: user.id, bearer: String(bearer)) { status in
            responder.endStream(request.id, generation: request.generation, status: status)
        }
        // Whatever ends the stream without the export ending it (CANCEL, deadline, a slow reader,
        // the connection's close, shutdown) gives the place back (CANCEL and the deadline before
        // their END_STREAM is sent: both run on the connection's loop); so does the export's end.
        responder.onStreamTermination(request.id, generation: request.generation) { slot.end() }
        guard responder.isActive(request.id, generation: request.generation) else { return }
        let export = ExportCursor(data: user.snapshot(now: now()).data, pageSize: pageSize)
        sendExportPages(export, request: request, responder: responder, slot: slot)
    }

    /// Encodes pages on the export queue while little output waits, then waits for the client to
    /// read. Gives the queue to other exports after every `exportOutputHighWater` bytes.
    ///
    /// The exports of a connection are woken together when its output drains, and the first to
    /// run may fill it again: one that was `woken` sends a page whatever the output, so that
    /// every export of the connection goes on (each one page past the mark at most).
    private func sendExportPages(
        _ export: ExportCursor,
        request: IncomingRequest,
        responder: Responder,
        slot: ExportSlots.Slot,
        woken: Bool = false
    ) {
        exportQueue.async {
            var export = export
            var sent = 0
            var mayPass = woken
            while responder.isActive(request.id, generation: request.generation) {
                if !mayPass && responder.pendingOutputBytes > Self.exportOutputHighWater {
                    let rest = export
                    let waiting = responder.resumeWhenOutputDrains(
                        to: Self.exportOutputLowWater,
                        stream: request.id,
                        generation: request.generation
                    ) {
                        self.sendExportPages(rest, request: request, responder: responder, slot: slot, woken: true)
                    }
                    if waiting { return }
                    continue
                }
                if sent >= Self.exportOutputHighWater {
                    self.sendExportPages(export, request: request, responder: responder, slot: slot)
                    return
                }
                let page = export.nextPage()
                guard responder.sendStreamMessage(to: request.id, generation: request.generation, message: page.bytes)
                else { break }
                sent += page.bytes.count
                mayPass = false
                if page.last {
                    // The place first: a client that read END_STREAM may start another export at once.
                    slot.end()
                    responder.endStream(request.id, generation: request.generation, status: .ok)
                    return
                }
            }
            slot.end()
        }
    }
}

/// Walks a snapshot of a user's data page by page: the first page has the settings, habits and
/// rest periods; every page has up to `pageSize` completions and skips, by habit id then date.
///
/// Holds the records compactly (`HabitDayList`, 4 bytes a record), not the user's data: the
/// snapshot is copied when the cursor is made, so later writes neither change the export nor
/// are kept alive by it. The first page's parts are dropped once it is encoded.
struct ExportCursor: Sendable {
    /// What only the first page carries.
    private struct FirstPage: Sendable {
        var settings: WireSettings
        var habits: [Habit]
        var restPeriods: [WireRestPeriod]
    }

    private var firstPage: FirstPage?
    private let pageSize: Int
    private let completions: HabitDayList
    private let skips: HabitDayList
    private var nextCompletion = 0
    private var nextSkip = 0

    init(data: UserData, pageSize: Int) {
        self.pageSize = pageSize
        firstPage = FirstPage(
            settings: WireSettings(data.settings),
            habits: data.index.habits,
            restPeriods: data.restPeriods.map(WireRestPeriod.init)
        )
        completions = data.index.completionsByHabit
        skips = data.index.skipsByHabit
    }

    /// The next page, encoded, and whether it is the last.
    mutating func nextPage() -> (bytes: [UInt8], last: Bool) {
        var page = WireExportDataPage()
        if let first = firstPage {
            firstPage = nil
            page.settings = first.settings
            page.habits = first.habits.sorted { $0.id < $1.id }.map(WireHabit.init)
            page.restPeriods = first.restPeriods
            page.totalRecords = Int64(completions.count + skips.count)
        }
        let completionEnd = min(completions.count, nextCompletion + pageSize)
        page.completions = completions[nextCompletion..<completionEnd].map {
            WireCompletion(habitId: $0.habitID, date: $0.date)
        }
        nextCompletion = completionEnd
        let room = pageSize - page.completions.count
        let skipEnd = min(skips.count, nextSkip + room)
        page.skips = skips[nextSkip..<skipEnd].map { WireSkip(habitId: $0.habitID, date: $0.date) }
        nextSkip = skipEnd
        page.last = nextCompletion == completions.count && nextSkip == skips.count
        return (page.serializedBytes(), page.last)
    }
}
