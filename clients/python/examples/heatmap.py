#!/usr/bin/env python3
"""Prints the streak and a text heatmap (month labels, weekday rows, one column per week).

usage: heatmap.py [--server HOST:PORT] [--token TOKEN | --token-file FILE] [--as-of YYYY-MM-DD]
Defaults, as for the `streak` command line: $STREAK_SERVER or 127.0.0.1:7411; $STREAK_TOKEN, else the
token file a local streakd writes ($STREAKD_DATA_DIR/token or ~/.local/share/streakd/token).
"""

from __future__ import annotations

import argparse
import datetime
import sys

from streakd_client import Client, Heatmap, Streak, StreakError

SHADES = {0: "\u00b7", 1: "\u2591", 2: "\u2592", 3: "\u2588"}  # none, light, medium, full
WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]


def render(heatmap: Heatmap) -> list[str]:
    """Month labels on top, then seven rows (week order) of level shades; absent cells blank."""
    columns = len(heatmap.weeks)
    top = [" "] * (columns + 4)
    for label in heatmap.month_labels:
        for k, ch in enumerate(label.label):
            if label.week_index + k < len(top):
                top[label.week_index + k] = ch
    lines = ["    " + "".join(top).rstrip()]
    for row in range(7):
        weekday = (heatmap.week_start - 1 + row) % 7 if heatmap.week_start else row
        name = WEEKDAYS[weekday] if row % 2 == 0 else "   "
        cells = []
        for week in heatmap.weeks:
            cell = week.cells[row] if row < len(week.cells) else None
            cells.append(SHADES.get(cell.level, "?") if cell is not None and cell.present else " ")
        lines.append(f"{name} " + "".join(cells))
    legend = "  ".join(f"{SHADES.get(e.level, '?')} {e.description}" for e in heatmap.legend)
    if legend:
        lines.append("    " + legend)
    return lines


def describe(streak: Streak) -> str:
    text = f"streak: {streak.current} day{'s' if streak.current != 1 else ''}"
    if streak.current_start is not None:
        text += f" since {streak.current_start}"  # a datetime.date prints as YYYY-MM-DD
    if streak.today_pending:
        text += " (today pending)"
    text += f"; longest {streak.longest}"
    if streak.longest_start is not None:
        text += f" ({streak.longest_start} to {streak.longest_end})"
    return text + f"; as of {streak.as_of}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="HOST:PORT (default: $STREAK_SERVER, else 127.0.0.1:7411)")
    token = parser.add_mutually_exclusive_group()
    token.add_argument("--token", help="the bearer token (default: $STREAK_TOKEN, else the local token file)")
    token.add_argument("--token-file", help="a file holding the token")
    parser.add_argument("--as-of", type=datetime.date.fromisoformat, help="YYYY-MM-DD (default: today)")
    args = parser.parse_args(argv)
    try:
        # A missing or unreadable token file raises TokenFileError, a StreakError naming the file.
        with Client.from_env(args.server, token=args.token, token_file=args.token_file) as client:
            streak = client.get_streak(args.as_of)
            heatmap = client.get_heatmap(as_of=args.as_of)
    except StreakError as error:
        print(f"heatmap.py: {error.code_name} ({error.code}): {error.message}", file=sys.stderr)
        return 1
    print(describe(streak))
    print("\n".join(render(heatmap)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
