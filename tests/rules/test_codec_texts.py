"""Texts put together from kept parts (``codec_texts``) are exactly the canonical JSON: the
events, battles and report digests of a real replay, and the edge cases of the splice."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace

import pytest

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.store import open_store
from mekref.daemon.tripwire.cli_replay import replay
from mekref.rules import codec_texts
from mekref.rules.codec import OMIT_IF_DEFAULT, canonical_json, jsonable_text, to_jsonable
from mekref.rules.messages import event_text, message_to_json
from mekref.rules.tripwire.battle_book import content_digest, report_content, with_reporting_side
from mekref.rules.tripwire.battle_messages import BattleReportReceived, BattleResolved
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> list[object]:
    """The bundled replay's events, decoded from its log (no text kept on them yet)."""
    db = str(tmp_path_factory.mktemp("texts") / "replay.db")
    replay(SAMPLE, db, ruleset="tripwire", seed="7")
    with open_store(db) as store:
        runner = CampaignRunner(store)
        return [event for _, event in runner.events(store.list_campaigns()[0].id)]


def test_events_written_around_kept_texts_are_their_canonical_json(events: list[object]) -> None:
    kinds = {type(e) for e in events}
    assert {BattleReportReceived, BattleResolved} <= kinds
    for event in events:
        whole = jsonable_text(message_to_json(event))  # type: ignore[arg-type]
        assert event_text(event) == whole  # type: ignore[arg-type]
        assert event_text(event) == whole  # type: ignore[arg-type]  # again, from kept texts


def test_a_battle_written_around_its_parts_is_its_canonical_json(events: list[object]) -> None:
    state = TRIPWIRE.initial_state()
    for event in events:
        text = event_text(event)  # type: ignore[arg-type]  # keeps the parts' texts
        assert text
        state = TRIPWIRE.evolve(state, event)  # type: ignore[arg-type]
    assert isinstance(state, CampaignState)
    for battle in state.battles.battles.values():
        assert codec_texts.object_text(battle) == canonical_json(battle)


def test_a_report_digest_from_the_file_s_texts_is_the_one_made_whole(events: list[object]) -> None:
    for event in events:
        if not isinstance(event, BattleReportReceived):
            continue
        file = replace(event.file)  # a fresh instance: nothing kept yet
        report = report_content(file)
        assert codec_texts.text_like(report, file) == canonical_json(report)
        expected = hashlib.sha256(canonical_json(report).encode("utf-8")).hexdigest()
        assert content_digest(file) == expected
        moved = with_reporting_side(replace(event.file), "somebody")
        content_digest(moved)
        assert codec_texts.text_of(moved) == canonical_json(moved)


@dataclass(frozen=True, kw_only=True)
class _Part:
    name: str
    note: str = field(default="", metadata=OMIT_IF_DEFAULT)


@dataclass(frozen=True, kw_only=True)
class _Whole:
    parts: tuple[_Part, ...]
    first: _Part | None
    label: str = 'é"\\ ✓'
    extra: str = field(default="", metadata=OMIT_IF_DEFAULT)


codec_texts.keep_texts(_Part)


@pytest.mark.parametrize(
    "whole",
    [
        _Whole(parts=(), first=None),
        _Whole(parts=(_Part(name="a"), _Part(name="b", note="x")), first=_Part(name="ü")),
        _Whole(parts=(_Part(name="a"),), first=None, extra="set", label=""),
    ],
)
def test_the_splice_matches_canonical_json(whole: _Whole) -> None:
    assert codec_texts.object_text(whole) == canonical_json(whole)
    assert codec_texts.object_text(whole) == canonical_json(whole)  # from kept texts
    body = to_jsonable(whole)
    assert codec_texts.object_text(whole, {"type": '"W"'}) == jsonable_text({"type": "W", **body})


def test_a_class_with_slots_cannot_keep_its_text() -> None:
    @dataclass(frozen=True, slots=True)
    class Slotted:
        x: int

    with pytest.raises(TypeError):
        codec_texts.keep_texts(Slotted)
