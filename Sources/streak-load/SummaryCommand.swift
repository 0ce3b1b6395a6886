import ArgumentParser
import Foundation
import StreakCore

extension StreakLoad {
    /// What a write's streak summary costs as a history grows, walked from its first day and from
    /// the checkpoint the index keeps. No server: the domain core alone, in this process.
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A write's streak summary, walked from the first day and from a kept checkpoint.",
            discussion: """
                For each history length: a user with five daily habits (each done on about eight days in
                ten), then --rounds writes of today's completion (alternately removed and recorded), each
                followed by the streak summary as of today, as a write's answer has it. Prints a RESULT line
                per length and walk: name=summary-YEARSy-full (every summary walks from the first day) or
                name=summary-YEARSy-checkpoint (each keeps the checkpoint it offers), with us_per_write.
                With --rest-period the user also has a rest period (one day, in the first month): every
                summary then takes the walk that bridges rest days (over every day, not only those with
                completions), and the names are summary-YEARSy-rest-full and summary-YEARSy-rest-checkpoint.
                """
        )

        @Option(help: "History lengths in years, comma-separated.")
        var years = "1,3,10,20"

        @Option(help: "Writes (each with its summary) per measurement.")
        var rounds = 20_000

        @Flag(help: "Give the user a rest period: the summaries take the walk that bridges rest days.")
        var restPeriod = false

        func validate() throws {
            guard rounds > 0 else { throw ValidationError("--rounds must be positive") }
            guard !lengths.isEmpty, lengths.allSatisfy({ (1...100).contains($0) }) else {
                throw ValidationError("--years takes whole numbers of years in 1...100, e.g. 1,3,10")
            }
        }

        var lengths: [Int] { years.split(separator: ",").compactMap { Int($0) } }

        func run() throws {
            for length in lengths {
                for keeping in [false, true] {
                    let micros = try Self.measure(
                        years: length,
                        rounds: rounds,
                        keepingCheckpoints: keeping,
                        restPeriod: restPeriod
                    )
                    let name = "summary-\(length)y\(restPeriod ? "-rest" : "")-\(keeping ? "checkpoint" : "full")"
                    print("RESULT name=\(name) rounds=\(rounds) us_per_write=\(String(format: "%.3f", micros))")
                }
            }
        }

        /// Microseconds per write and summary over `rounds`.
        static func measure(years: Int, rounds: Int, keepingCheckpoints: Bool, restPeriod: Bool) throws -> Double {
            let first = try CivilDate(parsing: "2000-01-01")
            let days = years * 365
            let habits = (1...5).map { Habit(id: Int64($0), name: "habit \($0)", createdOn: first) }
            var completions: [Completion] = []
            for day in 0..<days {
                for habit in 1...5 where (day * 7 + habit * 3) % 10 < 8 {
                    completions.append(Completion(habitID: Int64(habit), date: try first.adding(days: day)))
                }
            }
            let rest = try RestPeriod(from: first.adding(days: 10), to: first.adding(days: 10))
            var index = CompletionIndex(habits: habits, completions: completions, restPeriods: restPeriod ? [rest] : [])
            let today = try first.adding(days: days - 1)
            var longest = 0
            let start = DispatchTime.now().uptimeNanoseconds
            for round in 0..<rounds {
                if round % 2 == 0 {
                    index.remove(habitID: 1, date: today)
                } else {
                    index.record(habitID: 1, date: today)
                }
                let (summary, checkpoint) = StreakCalculator.summaryAndCheckpoint(
                    index,
                    threshold: .atLeastOneHabit,
                    asOf: today
                )
                if keepingCheckpoints, let checkpoint { index.keepStreakCheckpoint(checkpoint) }
                longest = max(longest, summary.longest)
            }
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            // Used, so that the summaries are not optimized away.
            guard longest > 0 else { throw ValidationError("no streak in a history of daily habits") }
            return Double(elapsed) / Double(rounds) / 1_000
        }
    }
}
