"""The shared cases of docs/vectors: the rules that the server, the Swift library and the Python
and C clients must apply alike, read by each language's tests from the one file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[3] / "docs" / "vectors"


def load(name: str) -> Any:
    """docs/vectors/NAME, decoded."""
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


def habit_names() -> tuple[dict[str, str], list[tuple[str, str | None, str]]]:
    """docs/vectors/habit-names.json: the messages by reason, and (name, reason or None, why) cases."""
    data = load("habit-names.json")
    cases = [(case["name"] * case.get("times", 1) + case.get("then", ""), case["refused"], case["why"])
             for case in data["cases"]]
    return data["messages"], cases


def server_addresses() -> tuple[list[dict[str, Any]], list[tuple[str, bool]]]:
    """docs/vectors/server-addresses.json: the address cases, and (host, loopback) cases."""
    data = load("server-addresses.json")
    return data["addresses"], [(case["host"], case["loopback"]) for case in data["loopback"]]
