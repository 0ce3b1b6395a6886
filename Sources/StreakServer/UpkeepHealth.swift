import FoundationEssentials
import StreakStorage
import StreakWire
import Synchronization

/// The store's upkeep that is failing now, from its reports, for GetServerInfo: what the log
/// said at the failure's start, and since when, until the report that it works again.
final class UpkeepHealth: Sendable {
    /// A failure going on: its first report and when that came.
    struct Failure: Sendable, Equatable {
        let upkeep: StoreUpkeep
        let error: StorageError
        let since: Date
    }

    private let failing = Mutex<[StoreUpkeep: Failure]>([:])

    init() {}

    /// Takes a report: a failure starts (its first report is kept), or the upkeep works again.
    func take(_ report: StoreUpkeepReport, at now: Date) {
        failing.withLock { failing in
            if let error = report.failure {
                if failing[report.upkeep] == nil {
                    failing[report.upkeep] = Failure(upkeep: report.upkeep, error: error, since: now)
                }
            } else {
                failing[report.upkeep] = nil
            }
        }
    }

    /// The failures going on, by job name.
    var current: [Failure] {
        failing.withLock { Array($0.values) }.sorted { $0.upkeep.job < $1.upkeep.job }
    }
}

extension UpkeepHealth.Failure {
    /// As GetServerInfo carries it: the same words as the log's warning, never the engine's own.
    var wire: WireStorageUpkeepFailure {
        WireStorageUpkeepFailure(
            job: upkeep.job,
            description: upkeep.rawValue,
            failingSinceUnixSeconds: Int64(since.timeIntervalSince1970.rounded(.down)),
            error: "\(error.code)",
            detail: error.message,
            engineCode: error.engine?.code ?? ""
        )
    }
}
