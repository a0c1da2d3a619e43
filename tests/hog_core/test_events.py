"""Event serialization: explicit JSON, checked type and version, clear errors for bad data."""

from __future__ import annotations

import pytest

from hog_core import events as ev
from hog_core.events import GameCreated, Player, TurnTaken


def test_encoding_is_explicit_json_with_a_type_tag() -> None:
    assert ev.encode(TurnTaken(seat=1, k=2, outcomes=(3, 4), sides=6)) == (
        b'{"type":"TurnTaken","seat":1,"k":2,"outcomes":[3,4],"sides":6}'
    )


def test_game_created_round_trips() -> None:
    created = GameCreated("g", "fa18", 1, 100, (Player("1", "A"), Player("2", "B", house="perfect")), 600, 900)
    assert ev.decode(ev.encode(created), type_name="GameCreated", version=2) == created


V1_GAME_CREATED = (
    b'{"type":"GameCreated","game_id":"old","rules":"sp21","rules_version":1,"goal":50,'
    b'"players":[{"id":"1","name":"A","house":null},{"id":"2","name":"B","house":null}],'
    b'"first":1,"challenge":false,"turn_limit":500,"place":"c"}'
)


def test_a_stored_v1_game_is_upcast_on_read_and_never_times_out() -> None:
    event = ev.decode(V1_GAME_CREATED, type_name="GameCreated", version=1)
    assert isinstance(event, GameCreated)
    assert (event.challenge_timeout, event.turn_timeout) == (0, 0)
    assert (event.game_id, event.rules, event.goal, event.first, event.place) == ("old", "sp21", 50, 1, "c")
    with pytest.raises(ev.UnknownEvent, match="damaged"):
        ev.decode(V1_GAME_CREATED, type_name="GameCreated", version=2)  # v1 bytes are not v2


def test_events_are_frozen() -> None:
    turn = TurnTaken(seat=0, k=1, outcomes=(3,), sides=6)
    with pytest.raises(AttributeError):
        turn.k = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "type_name", "version", "words"),
    [
        (b'{"type":"TurnTaken","seat":0,"k":1,"outcomes":[3],"sides":6}', "DiceStolen", 1, "unknown event type"),
        (b'{"type":"TurnTaken","seat":0,"k":1,"outcomes":[3],"sides":6}', "TurnTaken", 9, "version 9"),
        (b'{"type":"TurnTaken","seat":0,"k":1,"outcomes":[3],"sides":6}', "TurnTaken", 0, "version 0"),
        (b"[1, 2]", "GameCreated", 1, "damaged"),
        (b'{"type":"GameCreated"}', "GameCreated", 1, "damaged"),
        (b'{"type":"TurnTaken","seat":0,"k":1,"outcomes":[3]', "TurnTaken", 1, "damaged"),
        (b'{"type":"TurnTaken","seat":"zero","k":1,"outcomes":[3],"sides":6}', "TurnTaken", 1, "damaged"),
        (b'{"type":"Nope"}', None, None, "damaged"),
        (b'{"type":"ChallengeExpired"}', "TurnTaken", 1, "stored as TurnTaken"),
    ],
)
def test_unreadable_events_raise_a_clear_error(
    data: bytes, type_name: str | None, version: int | None, words: str
) -> None:
    with pytest.raises(ev.UnknownEvent, match=words):
        ev.decode(data, type_name=type_name, version=version)
