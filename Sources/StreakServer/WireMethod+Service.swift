import StreakWire

extension WireMethod {
    /// Reads of the user's data whose encoded answers are cached until the user's next write.
    var isCacheableRead: Bool {
        switch self {
        case .listHabits, .getDay, .getHeatmap, .getStreak, .getWeekdayChart, .getMonthPage, .getSettings,
            .listRestPeriods:
            true
        default:
            false
        }
    }

    /// Methods that compute only from the request (cached by request bytes for everyone).
    var isStatelessBuilder: Bool {
        switch self {
        case .buildMonthLabels, .buildHeatmap, .buildMonthPage: true
        default: false
        }
    }

    /// Methods that change the user's data through the store.
    var isWrite: Bool {
        switch self {
        case .createHabit, .renameHabit, .archiveHabit, .recordCompletion, .removeCompletion, .batchCompletions,
            .updateSettings, .setHabitSchedule, .skipHabit, .unskipHabit, .addRestPeriod, .removeRestPeriod,
            .deleteHabit, .unarchiveHabit, .importData:
            true
        default:
            false
        }
    }
}

/// Finds a method by path with one hash lookup (the enum's `init(rawValue:)` compares the paths one by one).
enum MethodTable {
    private static let byPath: [String: WireMethod] = Dictionary(
        uniqueKeysWithValues: WireMethod.allCases.map { ($0.rawValue, $0) }
    )

    /// The method with this path, or nil when the service has none.
    static func method(_ path: String) -> WireMethod? {
        byPath[path]
    }
}
