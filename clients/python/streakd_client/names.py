"""The habit name rule, checked before a name is sent (docs/PROTOCOL.md section 2.2).

A name is 1 to 200 Unicode scalars (code points: `len(str)`, the count the server and every
client use), at least one of them not white space (Unicode's White_Space property, scalar by
scalar: " \u0301", a space and a combining accent, is not blank), none of them a control
character (general category Cc, U+0000 included). The server refuses such a name with INVALID_ARGUMENT; the client refuses it first,
with a ValueError, so that nothing is sent.
"""

from __future__ import annotations

import unicodedata

MAX_HABIT_NAME_LENGTH = 200
"""The longest habit name, in Unicode scalars (code points)."""

# Unicode's White_Space property, which the server applies to each scalar. Not `str.isspace()`:
# that also counts U+001C...U+001F (information separators, control characters) as space.
_WHITE_SPACE = frozenset([*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
                          0x202F, 0x205F, 0x3000])


def check_habit_name(name: str) -> None:
    """Raises ValueError when the server would refuse `name` as a habit name."""
    if not isinstance(name, str):
        raise TypeError(f"a habit name is a str, not {type(name).__name__}")
    length = len(name)
    if length == 0 or length > MAX_HABIT_NAME_LENGTH:
        raise ValueError(f"a habit name is 1 to {MAX_HABIT_NAME_LENGTH} characters "
                         f"(Unicode scalars; got {length})")
    if all(ord(char) in _WHITE_SPACE for char in name):
        raise ValueError("a habit name needs a character that is not white space")
    for index, char in enumerate(name):
        if unicodedata.category(char) == "Cc":
            raise ValueError(f"a habit name may not contain control characters "
                             f"(U+{ord(char):04X} at index {index})")
        if unicodedata.category(char) == "Cs":
            # A str may hold one (from "surrogateescape" decoding, say); UTF-8 cannot encode it.
            raise ValueError(f"a habit name must be Unicode text: a lone surrogate "
                             f"(U+{ord(char):04X} at index {index}) is not a character")
