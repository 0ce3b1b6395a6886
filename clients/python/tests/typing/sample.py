"""Type-checked (never run) by tests/test_typing.py: a user's code against the typed API, under --strict."""

from __future__ import annotations

import datetime

from streakd_client import (Client, CompletionResult, DayDetail, DeletedHabit, Export, ExportPage, Habit, Heatmap,
                            HeatmapCell, ImportHabit, ImportResult, RestPeriod, ScheduleEntry, Streak, StreakError,
                            TokenFileError, Weekday, read_token, to_date, types_pb2)


def daily_loop(client: Client, today: datetime.date) -> int:
    habit: Habit = client.create_habit("Read", today, schedule=[Weekday.MONDAY, 3])
    done: CompletionResult = client.record_completion(habit.id, today)
    since: datetime.date | None = done.streak.current_start
    streak: Streak = client.get_streak(today - datetime.timedelta(days=1), habit_ids=[habit.id])
    day: DayDetail = client.get_day("2024-03-05")
    names = [h.name for h in day.open_habits]
    print(since, streak.as_of.isoformat(), names)
    return streak.current


def ranges(client: Client) -> list[datetime.date]:
    heatmap: Heatmap = client.get_heatmap(start=datetime.date(2024, 1, 1), end="2024-03-31", week_start=Weekday.MONDAY)
    client.get_heatmap(from_=(2024, 1, 1), to=types_pb2.Date(year=2024, month=3, day=31), locale="en_US")
    client.get_weekday_chart("2024-01-01", "2024-03-31", include_total=True)
    client.add_rest_period(datetime.date(2024, 7, 1), datetime.date(2024, 7, 14), note="holiday")
    periods: list[RestPeriod] = client.list_rest_periods()
    client.remove_rest_period(periods[0].id)
    cells: list[HeatmapCell] = list(heatmap.days())
    return [cell.date for cell in cells if cell.date is not None]


def your_data(client: Client, other: Client) -> int:
    export: Export = client.export_all(page_size=1000)
    result: ImportResult = other.import_data(export.habits, export.rest_periods, export.settings)
    other.import_data([ImportHabit("Gym", datetime.date(2024, 5, 11),
                                   schedule=[ScheduleEntry(datetime.date(2024, 5, 11), (Weekday.MONDAY,))],
                                   completions=[datetime.date(2024, 5, 13)])],
                      rest_periods=[("2024-08-01", "2024-08-14", "Holiday")])
    with client.export_data(page_size=2, timeout=60) as stream:
        pages: list[ExportPage] = list(stream)
    deleted: DeletedHabit = client.delete_habit(export.habits[0].habit.id)
    live: Habit = client.unarchive_habit(2)
    days = [error.date for error in result.errors if error.date is not None]
    return len(pages) + deleted.completions + live.id + len(days)


def tokens() -> str:
    try:
        with Client.from_env(timeout=5) as client:
            return str(client.ping().serving)
    except TokenFileError as error:
        return error.path
    except StreakError as error:
        return error.code_name
    finally:
        read_token("/tmp/token")
        to_date("2024-03-05").isoformat()


reveal_type(Client.get_streak(Client(), None).as_of)  # noqa: F821
reveal_type(Client().list_habits())  # noqa: F821
reveal_type(Client().get_heatmap().weeks[0].cells[0].date)  # noqa: F821
reveal_type(Client().watch().read(1.0))  # noqa: F821
reveal_type(Client().export_all().habits[0].completions[0])  # noqa: F821
reveal_type(next(Client().export_data()).settings)  # noqa: F821
reveal_type(Client().import_data().habits[0])  # noqa: F821
