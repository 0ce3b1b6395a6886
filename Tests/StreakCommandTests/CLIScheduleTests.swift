import Foundation
import StreakTestSupport
import Testing

/// Schedules, skips, rest periods, the day start and `--habit` through `streak` against a real streakd.
@Suite("streak schedules, skips and rest periods against a real streakd")
struct CLIScheduleTests {
    private func json(_ output: CLIRunner.Output) throws -> [String: Any] {
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test func scheduleSkipRestAndPerHabitViews() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let asOf = ["--as-of", "2024-05-06"]
        let gym = try json(
            cli.run(asOf + ["--json", "habit", "add", "Gym", "--date", "2024-04-29", "--on", "mon,WED,friday"])
        )
        let schedule = try #require((gym["habit"] as? [String: Any])?["schedule"] as? [[String: Any]])
        #expect(schedule.first?["weekdays"] as? [String] == ["monday", "wednesday", "friday"])
        _ = try json(cli.run(asOf + ["--json", "habit", "add", "Walk", "--date", "2024-05-01"]))
        for date in ["2024-05-01", "2024-05-02", "2024-05-05"] {
            _ = try json(cli.run(asOf + ["--json", "done", "Walk", "--date", date]))
        }
        let skipped = try json(cli.run(asOf + ["--json", "skip", "Walk", "--date", "2024-05-03"]))
        let day = try #require(skipped["day"] as? [String: Any])
        #expect(skipped["changed"] as? Bool == true && day["skipped_habit_ids"] as? [Int] == [2])
        _ = try json(cli.run(asOf + ["--json", "skip", "walk", "--date", "2024-05-04"]))
        // Walk's own streak bridges the skips; Gym (mon, wed, fri) was due on the 1st and the 3rd.
        let walk = try json(cli.run(asOf + ["--json", "streak", "--habit", "Walk"]))
        #expect(walk["current"] as? Int == 3 && walk["current_start"] as? String == "2024-05-01")
        // A kept streak on a day with nothing due is not "not done yet".
        let skippedDay = try cli.run(["--as-of", "2024-05-04", "streak", "--habit", "Walk"])
        #expect(skippedDay.stdout.contains("nothing is due today; the streak carries on\n"), "\(skippedDay)")
        let openDay = try cli.run(["--as-of", "2024-05-06", "streak", "--habit", "Walk"])
        #expect(openDay.stdout.contains("today is not done yet"), "\(openDay)")
        let both = try json(cli.run(asOf + ["--json", "day", "2024-05-03"]))
        #expect(both["due"] as? Int == 1 && (both["open_habits"] as? [[String: Any]])?.count == 1)

        let rest = try json(cli.run(asOf + ["--json", "rest", "add", "2024-04-29", "2024-04-30", "--note", "sick"]))
        let period = try #require(rest["rest_period"] as? [String: Any])
        #expect(period["note"] as? String == "sick" && period["from"] as? String == "2024-04-29")
        let list = try json(cli.run(["--json", "rest", "list"]))
        #expect((list["rest_periods"] as? [[String: Any]])?.count == 1)
        let picture = try cli.run(asOf + ["heatmap", "--from", "2024-04-29", "--habit", "Gym"])
        #expect(picture.status == 0 && picture.stdout.contains("- rest day"), "\(picture.stdout)")
        let removed = try json(cli.run(asOf + ["--json", "rest", "remove", "\(period["id"] as? Int ?? 0)"]))
        #expect((removed["rest_period"] as? [String: Any])?["id"] as? Int == period["id"] as? Int)

        let changed = try json(
            cli.run(asOf + ["--json", "habit", "schedule", "Gym", "--on", "weekends", "--from", "2024-05-06"])
        )
        let entries = try #require((changed["habit"] as? [String: Any])?["schedule"] as? [[String: Any]])
        #expect(entries.count == 2 && entries.last?["weekdays"] as? [String] == ["sunday", "saturday"])
        let listing = try cli.run(["habit", "list"])
        #expect(listing.stdout.contains("sun,sat since 2024-05-06"), "\(listing.stdout)")
        // A change dated before a later one: the text shows the entry in effect, then the next.
        let earlier = try cli.run(["--as-of", "2024-05-03", "habit", "schedule", "Gym", "--on", "tue", "--from", "-1"])
        #expect(earlier.stdout.hasSuffix("'Gym': tue since 2024-05-02, then sun,sat from 2024-05-06\n"), "\(earlier)")
        // A change that is neither in effect nor next is said first.
        let past = try cli.run([
            "--as-of", "2024-05-07", "habit", "schedule", "Gym", "--on", "fri", "--from", "2024-05-03",
        ])
        #expect(
            past.stdout.hasSuffix("'Gym': fri from 2024-05-03; today: sun,sat since 2024-05-06\n"),
            "\(past)"
        )
        let before = try cli.run(["--as-of", "2024-04-30", "habit", "list"])
        #expect(before.stdout.contains("mon,wed,fri since 2024-04-29, then tue from 2024-05-02\n"), "\(before)")
        // A skip of a day that was done says the completion was taken back; a second skip does not.
        #expect(try cli.run(asOf + ["done", "Walk"]).status == 0)
        let takeBack = try cli.run(asOf + ["skip", "Walk"])
        #expect(takeBack.stdout.contains("the completion of 'Walk' on 2024-05-06 was taken back"), "\(takeBack)")
        let again = try cli.run(asOf + ["skip", "Walk"])
        #expect(again.status == 0 && !again.stdout.contains("taken back"), "\(again)")
        let settings = try json(cli.run(["--json", "settings", "--day-start", "03:30"]))
        #expect(settings["day_start"] as? String == "03:30")
    }

    @Test func badInputIsAClearErrorWithExitCode65() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        _ = try json(cli.run(["--json", "habit", "add", "Read", "--date", "2024-01-01"]))
        let cases: [([String], String)] = [
            (["habit", "add", "Gym", "--on", "mon,funday"], "--on 'mon,funday'"),
            (["habit", "add", "Gym", "--on", ""], "--on ''"),
            (["habit", "schedule", "Nope", "--on", "mon"], "no habit named 'Nope'"),
            (["settings", "--day-start", "13:00"], "--day-start '13:00'"),
            (["settings", "--day-start", "3"], "--day-start '3'"),
            (["skip", "Read", "--date", "2023-12-31"], "not active"),
            (["rest", "add", "2024-03-05", "2024-03-01"], "before"),
            (["rest", "remove", "999"], "no rest period with id 999"),
            (["streak", "--habit", "Nope"], "no habit named 'Nope'"),
            // A day where a habit goes: refused before anything is written, with the option named.
            (["done", "Read", "yesterday"], "no habit named 'yesterday'; for the day, pass --date yesterday"),
            (["skip", "Read", "2024-13-01"], "no habit named '2024-13-01'; for the day, pass --date 2024-13-01"),
            (["undo", "Read", "monday"], "pass --date monday"),
            (["done", "Nope", "Read"], "no habit named 'Nope' (see: streak habit list)"),
            (["done", "Read", "42"], "no habit named '42' (see: streak habit list)"),
        ]
        for (arguments, message) in cases {
            let output = try cli.run(arguments)
            #expect(output.status == 65, "\(arguments): \(output.status) \(output.stderr)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
        }
        // Read was never done, on any day those commands named.
        let streak = try json(cli.run(["--json", "streak", "--habit", "Read"]))
        #expect(streak["longest"] as? Int == 0, "\(streak)")
    }

    @Test func unskipAndPerHabitWeekdaysCalendarAndDay() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let asOf = ["--as-of", "2024-05-10"]
        _ = try json(cli.run(asOf + ["--json", "habit", "add", "Walk", "--date", "2024-05-01"]))
        _ = try json(cli.run(asOf + ["--json", "habit", "add", "Read", "--date", "2024-05-01"]))
        _ = try json(cli.run(asOf + ["--json", "done", "Walk", "--date", "2024-05-06"]))
        _ = try json(cli.run(asOf + ["--json", "skip", "Read", "--date", "2024-05-07"]))
        _ = try json(cli.run(asOf + ["--json", "skip", "Walk", "--date", "2024-05-07"]))
        // Every habit excused on the 7th: a rest day, marked in the plain calendar.
        let page = try cli.run(asOf + ["calendar", "2024-05"])
        #expect(page.status == 0 && page.stdout.contains(" 7-") && page.stdout.contains("- rest day"), "\(page.stdout)")
        let unskipped = try json(cli.run(asOf + ["--json", "unskip", "Walk", "--date", "2024-05-07"]))
        let day = try #require(unskipped["day"] as? [String: Any])
        #expect(unskipped["changed"] as? Bool == true && day["rest"] as? Bool == false)
        #expect(day["skipped_habit_ids"] as? [Int] == [2])
        let again = try json(cli.run(asOf + ["--json", "unskip", "Walk", "--date", "2024-05-07"]))
        #expect(again["changed"] as? Bool == false)
        // --habit restricts the weekday chart, the month page and the day to that habit.
        let chart = try json(cli.run(asOf + ["--json", "weekdays", "--habit", "Walk"]))
        let series = try #require(chart["series"] as? [[String: Any]])
        #expect(series.filter { $0["total"] as? Bool == false }.compactMap { $0["name"] as? String } == ["Walk"])
        let readPage = try json(cli.run(asOf + ["--json", "calendar", "2024-05", "--habit", "Read"]))
        let days = try #require(readPage["days"] as? [[String: Any]])
        #expect(days.first { $0["date"] as? String == "2024-05-07" }?["rest"] as? Bool == true)
        #expect(days.first { $0["date"] as? String == "2024-05-06" }?["highlighted"] as? Bool == false)
        let readDay = try json(cli.run(asOf + ["--json", "day", "2024-05-06", "--habit", "Read"]))
        #expect(readDay["active"] as? Int == 1 && readDay["completed"] as? Int == 0)
    }
}
