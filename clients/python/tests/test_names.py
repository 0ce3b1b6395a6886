"""Offline: the habit name rule is checked before sending (PROTOCOL.md section 2.2): 1 to 200
Unicode scalars, counted as `len(str)` counts them, not blank, no control character."""

from __future__ import annotations

import re

import pytest

import vectors
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


MESSAGES, CASES = vectors.habit_names()
ACCEPTED = [name for name, refused, _ in CASES if refused is None]
REFUSED = [(name, refused) for name, refused, _ in CASES if refused is not None]


def ids(cases):
    return [why for _, _, why in cases]


@pytest.mark.parametrize("name, refused, why", CASES, ids=ids(CASES))
def test_check_habit_name_gives_each_case_its_reason(name, refused, why):
    if refused is None:
        check_habit_name(name)
        return
    with pytest.raises(ValueError) as raised:
        check_habit_name(name)
    assert str(raised.value).startswith(MESSAGES[refused])
    if refused == "length":
        assert str(raised.value).endswith(f"got {len(name)})")


@pytest.mark.parametrize("name", ACCEPTED, ids=[why for _, refused, why in CASES if refused is None])
def test_a_valid_name_is_sent(client, server, name):
    assert len(name) <= MAX_HABIT_NAME_LENGTH
    client.create_habit(name)
    client.rename_habit(7, name)
    assert names_sent(server, "CreateHabit")[-1] == name
    assert names_sent(server, "RenameHabit")[-1] == name


@pytest.mark.parametrize("name, refused", REFUSED, ids=[why for _, refused, why in CASES if refused is not None])
def test_an_invalid_name_is_refused_unsent(client, server, name, refused):
    before = len(server.requests)
    message = re.escape(MESSAGES[refused])
    with pytest.raises(ValueError, match=message):
        client.create_habit(name)
    with pytest.raises(ValueError, match=message):
        client.rename_habit(7, name)
    with pytest.raises(ValueError, match=message):
        client.call("CreateHabit", name=name)
    with pytest.raises(ValueError, match=message):
        client.create_habit(request=S.CreateHabitRequest(name=name))
    assert len(server.requests) == before


@pytest.mark.parametrize("name, message", [
    ("Read\x00", r"control characters \(U\+0000 at index 4\)"),
    ("Re\nad", r"control characters \(U\+000A at index 2\)"),
])
def test_the_message_names_the_control_character(name, message):
    with pytest.raises(ValueError, match=message):
        check_habit_name(name)


@pytest.mark.parametrize("name", ["Read\ud800", "\udfffRead", "Re\udc80ad"])
def test_a_lone_surrogate_is_refused_unsent(client, server, name):
    before = len(server.requests)
    with pytest.raises(ValueError, match=r"lone surrogate \(U\+D[89A-F][0-9A-F]{2} at index \d\)"):
        client.create_habit(name)
    assert len(server.requests) == before
