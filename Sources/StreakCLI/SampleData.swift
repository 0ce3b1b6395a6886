public import StreakCore

/// A plausible year of habits and completions for a newcomer's first heatmap: seeded and
/// reproducible (the same seed and "today" give the same data on every machine).
public struct SampleData: Hashable, Sendable {
    /// One sample habit and the days it was done.
    public struct HabitPlan: Hashable, Sendable {
        /// The habit's name.
        public var name: String
        /// The day it was created.
        public var createdOn: CivilDate
        /// The days it was done, ascending, all in `createdOn...today`.
        public var completions: [CivilDate]
    }

    /// The habits, in creation order.
    public var habits: [HabitPlan]

    private struct Profile {
        let name: String
        let ageInDays: Int
        let probability: Double
        let weekdayFactor: [Double]  // Sunday first
    }

    private static let profiles = [
        Profile(name: "Read 20 pages", ageInDays: 400, probability: 0.80, weekdayFactor: [1.1, 1, 1, 1, 1, 0.9, 1.1]),
        Profile(
            name: "Morning run",
            ageInDays: 400,
            probability: 0.55,
            weekdayFactor: [0.4, 1.3, 0.6, 1.3, 0.6, 1.3, 1.2]
        ),
        Profile(name: "Meditate", ageInDays: 330, probability: 0.65, weekdayFactor: [1, 1, 1, 1, 1, 1, 1]),
        Profile(name: "Journal", ageInDays: 210, probability: 0.55, weekdayFactor: [1.3, 1, 1, 1, 1, 0.7, 0.8]),
        Profile(name: "Stretch", ageInDays: 130, probability: 0.60, weekdayFactor: [0.8, 1.1, 1.1, 1.1, 1.1, 1, 0.8]),
    ]

    /// Generates the sample.
    /// - Parameters:
    ///   - seed: the random seed; the same seed gives the same data.
    ///   - today: the last day with completions; habits were created up to 400 days before it.
    ///   - habitCount: how many of the five sample habits to use (1...5).
    public init(seed: UInt64, today: CivilDate, habitCount: Int = 5) {
        var random = SplitMix64(seed: seed)
        let profiles = Array(SampleData.profiles.prefix(max(1, min(5, habitCount))))
        let firstDay = today.dayNumber - (profiles.map(\.ageInDays).max() ?? 0)
        // A shared mood: good weeks and slumps make the heatmap look lived-in.
        var inSlump = false
        var plans = profiles.map { profile in
            HabitPlan(
                name: profile.name,
                createdOn: (try? CivilDate(dayNumber: today.dayNumber - profile.ageInDays)) ?? today,
                completions: []
            )
        }
        let streakLength = 12 + Int(random.next() % 30)
        for dayNumber in firstDay...today.dayNumber {
            guard let day = try? CivilDate(dayNumber: dayNumber) else { continue }
            inSlump = inSlump ? random.unit() > 0.22 : random.unit() < 0.035
            let inFinalStreak = today.dayNumber - dayNumber < streakLength
            // A day's energy ties its habits together, so full and empty days both happen.
            let energy = 0.35 + 0.95 * random.unit()
            var doneAny = false
            for (index, profile) in profiles.enumerated() where plans[index].createdOn <= day {
                var probability = energy * profile.probability * profile.weekdayFactor[day.weekday.rawValue - 1]
                if inSlump && !inFinalStreak { probability *= 0.15 }
                if random.unit() < probability {
                    plans[index].completions.append(day)
                    doneAny = true
                }
            }
            if inFinalStreak && !doneAny {
                plans[0].completions.append(day)
            }
        }
        habits = plans
    }
}
