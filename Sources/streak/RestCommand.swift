import ArgumentParser
import StreakCLI
import StreakClient
import StreakWire

/// `streak rest add|list|remove`: days on which no habit is expected.
struct RestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rest",
        abstract: "Rest periods (vacation, illness): no habit is expected, streaks carry over.",
        discussion: """
            Examples:
              streak rest add 2024-07-01 2024-07-14 --note 'Summer holiday'
              streak rest                  # the list
              streak rest remove 2
            """,
        subcommands: [Add.self, List.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a rest period, both days included.",
            // The arguments are an array only so that `-3` is not taken for an option: exactly two.
            usage: "streak rest add [<options>] <first-day> <last-day>",
            discussion: """
                Examples:
                  streak rest add 2024-07-01 2024-07-14 --note 'Summer holiday'
                  streak rest add yesterday today --note 'Flu'
                """
        )
        @OptionGroup var global: GlobalOptions
        // All unrecognized words: `-3` (three days ago) would otherwise be taken for an option.
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                "The first and the last day of rest (a date, yesterday, -N, monday).",
                // Shown as `<first-day> <last-day>`: two days, though parsed as one list.
                valueName: "first-day> <last-day"
            )
        )
        var days: [String] = []

        func validate() throws {
            guard days.count == 2 else {
                throw ValidationError("Give the first and the last day of rest (e.g. 2024-07-01 2024-07-14).")
            }
        }
        @Option(help: "Why (at most 200 Unicode scalars: characters, for most text).") var note: String = ""

        func run() async throws {
            try await global.run { context in
                guard let first = try await context.date(days[0], option: "FROM"),
                    let last = try await context.date(days[1], option: "TO")
                else { return }
                guard first <= last else {
                    throw CLIFailure(
                        .badInput,
                        "the rest period ends (\(last)) before it starts (\(first)); give the first day, then the last"
                    )
                }
                let added = try await context.client.addRestPeriod(
                    from: first,
                    to: last,
                    note: note,
                    asOf: context.asOf
                )
                let streak = StreakRenderer.render(
                    added.streak ?? WireStreakSummary(),
                    style: context.style,
                    nothingDueToday: try await context.nothingDue(pending: added.streak)
                )
                try context.emit(
                    json: .object([
                        ("rest_period", WireJSON.restPeriod(added.restPeriod)),
                        ("streak", WireJSON.streak(added.streak)),
                    ]),
                    text: "added rest period \(RestListRenderer.line(added.restPeriod ?? WireRestPeriod()))\n" + streak
                )
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List rest periods.",
            discussion: """
                Examples:
                  streak rest list
                  streak rest list --json
                """
        )
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await global.run(usesToday: false) { context in
                let periods = try await context.client.restPeriods()
                try context.emit(
                    json: .object([("rest_periods", .array(periods.map(WireJSON.restPeriod)))]),
                    text: RestListRenderer.render(periods)
                )
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a rest period by its id (see: streak rest list).",
            discussion: """
                Examples:
                  streak rest list     # the ids
                  streak rest remove 2
                """
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The rest period's id.") var id: Int64

        func run() async throws {
            try await global.run { context in
                let removed = try await context.client.removeRestPeriod(id: id, asOf: context.asOf)
                let streak = StreakRenderer.render(
                    removed.streak ?? WireStreakSummary(),
                    style: context.style,
                    nothingDueToday: try await context.nothingDue(pending: removed.streak)
                )
                try context.emit(
                    json: .object([
                        ("rest_period", WireJSON.restPeriod(removed.restPeriod)),
                        ("streak", WireJSON.streak(removed.streak)),
                    ]),
                    text: "removed rest period \(RestListRenderer.line(removed.restPeriod ?? WireRestPeriod()))\n"
                        + streak
                )
            }
        }
    }
}
