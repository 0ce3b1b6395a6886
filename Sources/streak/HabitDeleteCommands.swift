import ArgumentParser
import Foundation
import StreakCLI
import StreakClient
import StreakWire

#if canImport(Glibc)
import Glibc
#endif

extension HabitCommand {
    /// `streak habit delete HABIT [--yes]`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a habit and all its history (asks first on a terminal).",
            discussion: """
                This cannot be undone: `streak export` first if you may want it back. Archiving \
                (`streak habit archive`) keeps the history instead.

                Examples:
                  streak habit delete "Morning run"
                  streak habit delete 3 --yes       # in a script
                """
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit: its name, a prefix of it, or its id.", completion: HabitCompletion.kind)
        var habit: String
        @Flag(help: "Do not ask (needed when standard input is not a terminal).") var yes = false

        func run() async throws {
            try await global.run(usesToday: false) { context in
                let found = try await HabitResolver.resolve(habit, client: context.client)
                if !yes {
                    try Confirmation.ask(
                        "delete habit \(found.id) '\(found.name)' and all its history? This cannot be undone.",
                        flag: "--yes"
                    )
                }
                let deleted = try await HabitNaming.naming([found]) {
                    try await context.client.deleteHabit(id: found.id)
                }
                try context.emit(
                    json: .object([
                        ("habit", WireJSON.habit(deleted.habit ?? found)),
                        ("completions", .int(Int64(deleted.completions))), ("skips", .int(Int64(deleted.skips))),
                    ]),
                    text: "deleted habit \(found.id) '\(found.name)' with "
                        + "\(Plural.of(Int(deleted.completions), "completion")) and \(Plural.of(Int(deleted.skips), "skip"))\n"
                )
            }
        }
    }

    /// `streak habit unarchive HABIT`.
    struct Unarchive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an archived habit count again from its archive day on.",
            discussion: """
                Examples:
                  streak habit unarchive Gym
                  streak habit list --all     # archived habits and their days
                """
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit: its name, a prefix of it, or its id.", completion: HabitCompletion.kind)
        var habit: String

        func run() async throws {
            try await global.run(usesToday: false) { context in
                let found = try await HabitResolver.resolve(habit, client: context.client)
                let live = try await HabitNaming.naming([found]) {
                    try await context.client.unarchiveHabit(id: found.id)
                }
                try context.emit(
                    json: .object([("habit", WireJSON.habit(live))]),
                    text: "habit \(live.id) '\(live.name)' counts again\n"
                )
            }
        }
    }
}

/// A yes/no question on the terminal before something that cannot be undone.
enum Confirmation {
    /// Asks `question` when standard input is a terminal and returns on "y"/"yes".
    /// - Throws: `CLIFailure(.usage)` naming `flag` when there is no terminal to ask; exit 1 on "no".
    static func ask(_ question: String, flag: String) throws(CLIFailure) {
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIFailure(.usage, "\(question) Not asking without a terminal: pass \(flag) to go ahead")
        }
        FileHandle.standardError.write(Data("streak: \(question) [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else {
            throw CLIFailure(.declined, "nothing was changed")
        }
    }
}
