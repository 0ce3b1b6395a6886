import StreakCore
import StreakWire

/// A benchmark scenario: which requests its connections send.
enum ScenarioName: String, CaseIterable, Sendable {
    /// GetHeatmap for a year, the read that heatmap screens make.
    case heatmap
    /// The same GetHeatmap in the packed encoding (docs/PROTOCOL.md section 9): about 500 bytes instead of 9 KB.
    case heatmapPacked = "heatmap-packed"
    /// RecordCompletion and RemoveCompletion in turn on one (habit, date), so every request is a durable change.
    case record
    /// BuildMonthLabels for 53 weeks, stateless.
    case labels
    /// 70% GetHeatmap, 10% GetStreak, 10% BuildMonthLabels, 10% durable writes.
    case mix
    /// The same mix with the heatmaps packed, as a compact client (a watch face) would ask.
    case mixPacked = "mix-packed"
    /// GetStreak only: the normal client of `streak-load hostile`.
    case streak
}

extension ScenarioName {
    /// Every scenario's name, in declaration order, for help and error texts.
    static func names(separator: String) -> String {
        allCases.map(\.rawValue).joined(separator: separator)
    }
}

/// The requests one in-flight slot of one connection sends, in order.
struct RequestMix: Sendable {
    private let scenario: ScenarioName
    private let heatmap: RequestTemplate
    private let packedHeatmap: RequestTemplate
    private let streak: RequestTemplate
    private let labels: RequestTemplate
    private let record: RequestTemplate
    private let remove: RequestTemplate
    private var sent = 0
    private var writes = 0

    /// The slot's requests. `key` picks a (habit, date) pair that no other slot of the same user writes.
    init(scenario: ScenarioName, user: BenchUser, key: Int) {
        self.scenario = scenario
        let asOf = BenchUser.asOf
        var heatmapRequest = WireGetHeatmapRequest()
        heatmapRequest.asOf = asOf
        heatmap = RequestTemplate(
            method: WireMethod.getHeatmap.rawValue,
            token: user.token,
            message: heatmapRequest.serializedBytes()
        )
        heatmapRequest.packed = true
        packedHeatmap = RequestTemplate(
            method: WireMethod.getHeatmap.rawValue,
            token: user.token,
            message: heatmapRequest.serializedBytes()
        )
        var streakRequest = WireGetStreakRequest()
        streakRequest.asOf = asOf
        streak = RequestTemplate(
            method: WireMethod.getStreak.rawValue,
            token: user.token,
            message: streakRequest.serializedBytes()
        )
        var labelsRequest = WireBuildMonthLabelsRequest()
        let lastMonday = try! asOf.adding(days: -asOf.weekday.offset(from: .monday))
        labelsRequest.weekStarts = (0..<53).reversed().map { try! lastMonday.adding(days: -7 * $0) }
        labels = RequestTemplate(
            method: WireMethod.buildMonthLabels.rawValue,
            token: user.token,
            message: labelsRequest.serializedBytes()
        )
        let habitID = user.habitIDs[key % user.habitIDs.count]
        let date = try! asOf.adding(days: -(1 + key / user.habitIDs.count))
        var recordRequest = WireRecordCompletionRequest()
        recordRequest.habitId = habitID
        recordRequest.date = date
        recordRequest.asOf = asOf
        record = RequestTemplate(
            method: WireMethod.recordCompletion.rawValue,
            token: user.token,
            message: recordRequest.serializedBytes()
        )
        var removeRequest = WireRemoveCompletionRequest()
        removeRequest.habitId = habitID
        removeRequest.date = date
        removeRequest.asOf = asOf
        remove = RequestTemplate(
            method: WireMethod.removeCompletion.rawValue,
            token: user.token,
            message: removeRequest.serializedBytes()
        )
    }

    /// The next request to send.
    mutating func next() -> RequestTemplate {
        defer { sent += 1 }
        switch scenario {
        case .heatmap: return heatmap
        case .heatmapPacked: return packedHeatmap
        case .labels: return labels
        case .streak: return streak
        case .record: return nextWrite()
        case .mix, .mixPacked:
            switch sent % 10 {
            case 7: return streak
            case 8: return labels
            case 9: return nextWrite()
            default: return scenario == .mix ? heatmap : packedHeatmap
            }
        }
    }

    private mutating func nextWrite() -> RequestTemplate {
        defer { writes += 1 }
        return writes % 2 == 0 ? record : remove
    }
}
