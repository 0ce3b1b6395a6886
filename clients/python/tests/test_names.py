"""Offline: the habit name rule is checked before sending (PROTOCOL.md section 2.2): 1 to 200
Unicode scalars, counted as `len(str)` counts them, not blank, no control character."""

from __future__ import annotations

import pytest

from fakeserver import FakeServer, fake_client
from streakd_client import MAX_HABIT_NAME_LENGTH, check_habit_name, service_pb2, types_pb2
from streakd_client.framing import FrameKind, RequestBody

S = service_pb2
HABIT = types_pb2.Habit(id=7, name="x", created_on=types_pb2.Date(year=2024, month=1, day=1))


def answer(conn, frame, server):
    if frame.kind != FrameKind.REQUEST:
        return
    name = RequestBody.decode(frame.body).method.rsplit("/", 1)[-1]
    response = S.CreateHabitResponse(habit=HABIT) if name == "CreateHabit" else S.RenameHabitResponse(habit=HABIT)
    conn.respond(frame.request_id, payload=response.SerializeToString())


@pytest.fixture(scope="module")
def server():
    server = FakeServer(answer)
    yield server
    server.close()


@pytest.fixture(scope="module")
def client(server):
    yield from fake_client(server)


def names_sent(server, method: str) -> list[str]:
    return [getattr(S, f"{method}Request").FromString(body.message).name
            for _, body in server.requests if body.method.endswith("/" + method)]


# Each counts one per Unicode scalar: an emoji outside the BMP is one, a combining mark is one of
# its own (e + U+0301 is two), a flag is two regional indicators.
ACCEPTED_200 = [
    "a" * 200,
    "\U0001F3C3" * 200,  # runner, 4 UTF-8 bytes each
    "e\u0301" * 100,  # e + combining acute accent: 100 characters on screen, 200 scalars
    "\U0001F1F3\U0001F1F1" * 100,  # 100 flags, 200 regional indicators
    "\u00e9" * 199 + "x",  # precomposed é: one scalar each
]


@pytest.mark.parametrize("name", ACCEPTED_200, ids=["ascii", "emoji", "combining", "flags", "precomposed"])
def test_a_200_scalar_name_is_sent(client, server, name):
    assert len(name) == MAX_HABIT_NAME_LENGTH
    check_habit_name(name)
    client.create_habit(name)
    client.rename_habit(7, name)
    assert names_sent(server, "CreateHabit")[-1] == name
    assert names_sent(server, "RenameHabit")[-1] == name


@pytest.mark.parametrize("name", [n + n[-1] for n in ACCEPTED_200] + ["e\u0301" * 100 + "e"],
                         ids=["ascii", "emoji", "combining", "flags", "precomposed", "combining-odd"])
def test_a_201_scalar_name_is_refused_unsent(client, server, name):
    assert len(name) == 201
    before = len(server.requests)
    with pytest.raises(ValueError, match=r"1 to 200 characters \(Unicode scalars; got 201\)"):
        client.create_habit(name)
    with pytest.raises(ValueError, match="got 201"):
        client.rename_habit(7, name)
    with pytest.raises(ValueError, match="got 201"):
        client.call("CreateHabit", name=name)
    with pytest.raises(ValueError, match="got 201"):
        client.create_habit(request=S.CreateHabitRequest(name=name))
    assert len(server.requests) == before


@pytest.mark.parametrize("name, message", [
    ("", "got 0"),
    (" \t\u3000", "not white space"),
    ("Read\x00", r"control characters \(U\+0000 at index 4\)"),
    ("Re\nad", r"control characters \(U\+000A"),
    ("Read\u0085", r"control characters \(U\+0085"),
])
def test_blank_and_control_names_are_refused_unsent(client, server, name, message):
    before = len(server.requests)
    with pytest.raises(ValueError, match=message):
        client.create_habit(name)
    with pytest.raises(ValueError, match=message):
        client.rename_habit(7, name)
    assert len(server.requests) == before


def test_a_name_with_inner_spaces_is_fine():
    check_habit_name(" Read a book ")
