"""The habit name rule, checked before a name is sent (docs/PROTOCOL.md section 2.2).

A name is 1 to 200 Unicode scalars (code points: `len(str)`, the count the server and every
client use), at least one of them not white space, none of them a control character (U+0000
included). The server refuses such a name with INVALID_ARGUMENT; the client refuses it first,
with a ValueError, so that nothing is sent.
"""

from __future__ import annotations

import unicodedata

MAX_HABIT_NAME_LENGTH = 200
"""The longest habit name, in Unicode scalars (code points)."""


def check_habit_name(name: str) -> None:
    """Raises ValueError when the server would refuse `name` as a habit name."""
    if not isinstance(name, str):
        raise TypeError(f"a habit name is a str, not {type(name).__name__}")
    length = len(name)
    if length == 0 or length > MAX_HABIT_NAME_LENGTH:
        raise ValueError(f"a habit name is 1 to {MAX_HABIT_NAME_LENGTH} characters "
                         f"(Unicode scalars; got {length})")
    if name.isspace():
        raise ValueError("a habit name needs a character that is not white space")
    for index, char in enumerate(name):
        if unicodedata.category(char) == "Cc":
            raise ValueError(f"a habit name may not contain control characters "
                             f"(U+{ord(char):04X} at index {index})")
