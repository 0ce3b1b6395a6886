import Dispatch
import StreakCore
import StreakTransport
import StreakWire

extension StreakService {
    /// The default and the largest number of records (completions and skips) in one export page.
    static let defaultExportPageSize = 4_096
    static let maximumExportPageSize = 65_536
    /// An export waits while more than this much output waits for its client.
    static let exportOutputHighWater = 1 << 20

    /// ExportData: one consistent snapshot of the user's data, sent as pages at the pace the
    /// client reads them (a page is encoded only when less than `exportOutputHighWater` bytes
    /// wait for the client), so a long history never sits in memory encoded.
    func startExport(_ request: IncomingRequest, user: UserState, responder: Responder) throws {
        let message = try WireExportDataRequest(serializedBytes: request.message)
        let pageSize = message.pageSize == 0 ? Self.defaultExportPageSize : Int(message.pageSize)
        guard (1...Self.maximumExportPageSize).contains(pageSize) else {
            throw ServiceError.invalidArgument(
                "page_size \(message.pageSize) is outside 1...\(Self.maximumExportPageSize)"
            )
        }
        let export = ExportCursor(data: user.snapshot(now: now()).data, pageSize: pageSize)
        sendExportPages(export, request: request, responder: responder)
    }

    private func sendExportPages(_ export: ExportCursor, request: IncomingRequest, responder: Responder) {
        exportQueue.async {
            var export = export
            while responder.isActive(request.id, generation: request.generation) {
                if responder.pendingOutputBytes > Self.exportOutputHighWater {
                    let rest = export
                    self.exportQueue.asyncAfter(deadline: .now() + .milliseconds(2)) {
                        self.sendExportPages(rest, request: request, responder: responder)
                    }
                    return
                }
                let page = export.nextPage()
                guard responder.sendStreamMessage(to: request.id, generation: request.generation, message: page.bytes)
                else { return }
                if page.last {
                    responder.endStream(request.id, generation: request.generation, status: .ok)
                    return
                }
            }
        }
    }
}

/// Walks a user's data page by page: the first page has the settings, habits and rest periods;
/// every page has up to `pageSize` completions and skips, by habit id then date.
struct ExportCursor: Sendable {
    private let data: UserData
    private let pageSize: Int
    private let completions: [Completion]
    private let skips: [Skip]
    private var nextCompletion = 0
    private var nextSkip = 0
    private var first = true

    init(data: UserData, pageSize: Int) {
        self.data = data
        self.pageSize = pageSize
        completions = data.index.completions.sorted { ($0.habitID, $0.date) < ($1.habitID, $1.date) }
        skips = data.index.skips.sorted { ($0.habitID, $0.date) < ($1.habitID, $1.date) }
    }

    /// The next page, encoded, and whether it is the last.
    mutating func nextPage() -> (bytes: [UInt8], last: Bool) {
        var page = WireExportDataPage()
        if first {
            first = false
            page.settings = WireSettings(data.settings)
            page.habits = data.index.habits.sorted { $0.id < $1.id }.map(WireHabit.init)
            page.restPeriods = data.restPeriods.map(WireRestPeriod.init)
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
