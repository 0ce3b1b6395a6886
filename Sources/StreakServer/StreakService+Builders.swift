import StreakCore
import StreakFraming
import StreakTransport
import StreakWire

extension StreakService {
    /// Answers a stateless builder, caching the answer by request bytes.
    func answerBuilder(_ method: WireMethod, _ request: IncomingRequest, responder: Responder) throws {
        if let bytes = builderCache.lookup(method, request.message) {
            responder.respond(to: request, status: .ok, message: bytes)
            return
        }
        let bytes = try StatelessBuilders.response(method, request.message)
        builderCache.store(bytes, for: method, request.message)
        responder.respond(to: request, status: .ok, message: bytes)
    }
}

/// The stateless builders: computed only from what the request carries.
enum StatelessBuilders {
    /// The encoded response of `method` to the request `bytes`.
    static func response(_ method: WireMethod, _ bytes: [UInt8]) throws -> [UInt8] {
        switch method {
        case .buildMonthLabels:
            let request = try WireBuildMonthLabelsRequest(serializedBytes: bytes)
            let labels = MonthLabelBuilder.labels(weekStarts: request.weekStarts, locale: try locale(request.locale))
            return WireBuildMonthLabelsResponse(labels: labels.map(WireMonthLabel.init)).serializedBytes()
        case .buildHeatmap:
            return try heatmap(WireBuildHeatmapRequest(serializedBytes: bytes))
        case .buildMonthPage:
            return try monthPage(WireBuildMonthPageRequest(serializedBytes: bytes))
        default:
            throw ServiceError.unimplemented(method.rawValue)
        }
    }

    private static func heatmap(_ request: WireBuildHeatmapRequest) throws -> [UInt8] {
        guard let asOf = request.asOf else { throw ServiceError.invalidArgument("BuildHeatmap needs as_of") }
        let habits = try request.habits.map(Habit.init)
        guard Set(habits.map(\.id)).count == habits.count else {
            throw ServiceError.invalidArgument("habit ids must be unique")
        }
        let completions = try request.completions.map(Completion.init)
        let minPercent = request.minPercent == 0 ? nil : Int(request.minPercent)
        let threshold = try StreakThreshold(minPercent: minPercent)
        let skips = try request.skips.map(Skip.init)
        let byID = Dictionary(uniqueKeysWithValues: habits.map { ($0.id, $0) })
        for skip in skips {
            guard let habit = byID[skip.habitID] else {
                throw ServiceError.invalidArgument("skips: no habit with id \(skip.habitID) in habits")
            }
            guard habit.isActive(on: skip.date) else {
                throw ServiceError.invalidArgument("skips: habit \(skip.habitID) is not active on \(skip.date)")
            }
        }
        let restPeriods = try request.restPeriods.map { try RestPeriod(wire: $0, field: "rest_periods") }
        var completionDays: [(habitID: Int64, dayNumbers: [Int])] = []
        completionDays.reserveCapacity(request.completionDays.count)
        for (position, entry) in request.completionDays.enumerated() {
            do {
                completionDays.append((entry.habitId, try entry.dayNumbers()))
            } catch {
                throw ServiceError.invalidArgument(
                    "completion_days[\(position)] (habit \(entry.habitId)): \(error.message)"
                )
            }
        }
        let index = CompletionIndex(
            habits: habits,
            completions: completions,
            completionDays: completionDays,
            skips: skips,
            restPeriods: restPeriods
        )
        let options = HeatmapOptions(
            asOf: asOf,
            from: request.from,
            to: request.to,
            weekStart: try WeekStartResolver.weekday(request.weekStart, fallback: .monday),
            locale: try locale(request.locale),
            threshold: threshold,
            // A packed answer carries no labels: its decoder makes them from the counts.
            accessibilityLabels: request.accessibilityLabels && !request.packed
        )
        let heatmap = try HeatmapBuilder.build(index, options: options)
        let streak = StreakCalculator.summary(index, threshold: threshold, asOf: asOf)
        if request.packed {
            return WireBuildHeatmapResponse(
                streak: WireStreakSummary(streak),
                packed: WirePackedHeatmap(heatmap, monthLabels: request.packedMonthLabels)
            ).serializedBytes()
        }
        return WireBuildHeatmapResponse(heatmap: WireHeatmap(heatmap), streak: WireStreakSummary(streak))
            .serializedBytes()
    }

    private static func monthPage(_ request: WireBuildMonthPageRequest) throws -> [UInt8] {
        guard let asOf = request.asOf else { throw ServiceError.invalidArgument("BuildMonthPage needs as_of") }
        let month = try YearMonth(year: Int(request.year), month: Int(request.month))
        let profile = try locale(request.locale)
        let options = MonthPageOptions(
            weekStart: try WeekStartResolver.weekday(request.weekStart, fallback: profile.firstWeekday),
            locale: profile,
            today: asOf,
            selected: request.selected,
            highlighted: Set(request.highlighted)
        )
        return WireBuildMonthPageResponse(page: WireMonthPage(try MonthPageBuilder.build(month, options: options)))
            .serializedBytes()
    }

    private static func locale(_ identifier: String) throws -> LocaleProfile {
        identifier.isEmpty ? .english : try LocaleProfile.named(identifier)
    }
}
