"""Records: corrupt input gives a RecordError that says what is wrong."""

import pytest

from pocketgalaxy.core.errors import RecordError
from pocketgalaxy.core.record import GameRecord


def test_record_json_round_trip() -> None:
    rec = GameRecord(
        game="adventure",
        options={"max_turns": 50},
        players=3,
        seed=9,
        actions=[(0, {"type": "SkipPeek"})],
        meta={"names": ["a", "b", "c"]},
    )
    again = GameRecord.loads(rec.dumps())
    assert again == rec


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "not a Pocket Galaxy record"),
        ('{"format": "pocketgalaxy-record", "version": 9}', "version 9"),
        (
            '{"format": "pocketgalaxy-record", "version": 1, "game": "perils"}',
            "missing or has a bad field",
        ),
        (
            '{"format": "pocketgalaxy-record", "version": 1, "game": "perils", "players": 2,'
            ' "seed": "x",'
            ' "actions": []}',
            "seed",
        ),
    ],
)
def test_corrupt_records_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        GameRecord.loads(text)
