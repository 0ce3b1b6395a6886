import StreakWire

extension WireMethod {
    /// Reads of the user's data whose encoded answers are cached until the user's next write.
    var isCacheableRead: Bool {
        switch self {
        case .listHabits, .getDay, .getHeatmap, .getStreak, .getWeekdayChart, .getMonthPage, .getSettings:
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
            .updateSettings:
            true
        default:
            false
        }
    }
}
