"""The battle book: indexes kept as battles are folded, the same as built from scratch, and a
snapshot that keeps each battle apart (decoded when read) with the same JSON and hash."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.store import open_store
from mekref.daemon.tripwire.cli_replay import replay
from mekref.rules.codec import canonical_chunks, canonical_json, content_hash
from mekref.rules.refusal import Refusal
from mekref.rules.snapshot import HEADER, state_from_text, state_text
from mekref.rules.tripwire.battle_book import BattleBook, _Layers
from mekref.rules.tripwire.battle_messages import SubmitBattleReport
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState


@pytest.fixture(scope="module")
def folded(tmp_path_factory: pytest.TempPathFactory) -> CampaignState:
    """The bundled replay's campaign (two battles, resolved), folded from its log."""
    db = str(tmp_path_factory.mktemp("book") / "replay.db")
    replay(SAMPLE, db, ruleset="tripwire", seed="7")
    with open_store(db) as store:
        runner = CampaignRunner(store)
        state = runner.replay(store.list_campaigns()[0].id)
    assert isinstance(state, CampaignState)
    return state


def _indexes(book: BattleBook) -> tuple[object, ...]:
    return (
        [(battle_id, entry.summary) for battle_id, entry in book._entries.items()],
        dict(book._by_sha.items()),
        dict(book._by_digest.items()),
        book._open,
        {engagement: ids for engagement, ids in book._by_engagement.items() if ids},
    )


def test_the_folded_indexes_are_those_built_from_scratch(folded: CampaignState) -> None:
    book = folded.battles.battles
    assert len(book) == 2
    assert _indexes(book) == _indexes(BattleBook(dict(book.items())))
    for battle in book.values():
        for file in battle.files:
            assert book.battle_of_file(file.sha256) == battle.battle_id
    assert book.battle_of_file("0" * 64) is None


@pytest.mark.parametrize("utf8", [False, True], ids=["text", "utf8-bytes"])
def test_a_snapshot_keeps_each_battle_apart_and_decodes_it_when_read(
    folded: CampaignState, utf8: bool
) -> None:
    text = state_text(folded)
    assert text.startswith(HEADER + "\n")
    assert len(text.splitlines()) == 3 + len(folded.battles.battles)
    assert not text.isascii()  # a unit's name in the second record: one line, two bytes a char
    # As a store gives it to the runner, its UTF-8 bytes: each battle's line stays undecoded.
    loaded = state_from_text(CampaignState, text.encode() if utf8 else text)
    book = loaded.battles.battles
    assert all(entry.battle is None for _, entry in book._entries.items())  # none decoded yet
    assert _indexes(book) == _indexes(folded.battles.battles)
    # Its JSON and hash are the state's: from the kept texts, and from the decoded values.
    assert "".join(canonical_chunks(loaded)) == canonical_json(folded)
    assert content_hash(loaded) == content_hash(folded)
    assert loaded == folded  # equal texts: equal battles, nothing decoded to tell
    assert dict(book.items()) == dict(folded.battles.battles.items())  # read: decoded
    assert all(entry.battle is not None for _, entry in book._entries.items())


def test_an_index_of_another_version_is_rebuilt_from_the_battles(folded: CampaignState) -> None:
    text = state_text(folded).replace('"index":{"v":1,', '"index":{"v":0,', 1)
    loaded = state_from_text(CampaignState, text)
    assert loaded == folded
    assert _indexes(loaded.battles.battles) == _indexes(folded.battles.battles)


def test_the_old_snapshot_text_loads_in_the_order_the_battles_opened(
    folded: CampaignState,
) -> None:
    loaded = state_from_text(CampaignState, canonical_json(folded))
    assert loaded == folded
    assert list(loaded.battles.battles) == list(folded.battles.battles)


@pytest.mark.parametrize("from_snapshot", [False, True])
def test_br13_refuses_the_same_file_and_a_copy_saved_again(
    folded: CampaignState, from_snapshot: bool
) -> None:
    state = state_from_text(CampaignState, state_text(folded)) if from_snapshot else folded
    battle = next(iter(state.battles.battles.values()))
    known = battle.files[0]

    def refusal(file_sha: str, path: str) -> str:
        command = SubmitBattleReport(actor="ref", file=replace(known, sha256=file_sha, path=path))
        with pytest.raises(Refusal) as caught:
            TRIPWIRE.decide(state, command, TRIPWIRE.dice_for(state, command))
        assert caught.value.code == "duplicate_file"
        return str(caught.value)

    assert f"already part of battle {battle.battle_id}" in refusal(known.sha256, "again.mul")
    copied = refusal("f" * 64, "copy.mul")
    assert f"reports exactly what {known.path}" in copied and battle.battle_id in copied


def test_a_battle_changed_is_reindexed_without_touching_the_old_book(
    folded: CampaignState, tmp_path: Path
) -> None:
    book = folded.battles.battles
    battle = next(iter(book.values()))
    moved = book.with_battle(replace(battle, files=battle.files[:1], engagement_id="e-1"))
    assert moved.fought_for("e-1") == (battle.battle_id,)
    assert book.fought_for("e-1") == ()
    assert _indexes(moved) == _indexes(BattleBook(dict(moved.items())))


@given(st.lists(st.tuples(st.integers(0, 80), st.integers()), max_size=300))
def test_a_layered_map_is_a_dict_changed_in_turn(changes: list[tuple[int, int]]) -> None:
    layers: _Layers[int, int] = _Layers.empty()
    plain: dict[int, int] = {}
    versions = [(layers, dict(plain))]
    for key, value in changes:
        layers = layers.set(key, value)
        plain[key] = value
        versions.append((layers, dict(plain)))
    for made, expected in versions:  # every version as it was made, whatever came after
        assert list(made.items()) == list(expected.items())
        assert len(made) == len(expected)
        assert all(key in made for key in expected) and -1 not in made


def test_a_battle_s_unit_ids_carried_forward_are_those_walked(folded: CampaignState) -> None:
    """A file received carries the battle's known unit ids forward (a burst of files for one
    battle must not walk them all again); they are the ids a walk of its files gives."""
    from mekref.rules.tripwire.battle_model import Battle, with_file

    files = [f for battle in folded.battles.battles.values() for f in battle.files]
    assert len(files) >= 2
    battle = Battle(battle_id="b", number=1)
    for file in files:
        assert battle.unit_ids is not None  # asked, so known before the next file
        battle = with_file(battle, file)
        walked = frozenset(u.unit_id for f in battle.files for u in f.units)
        assert "unit_ids" in vars(battle) and battle.unit_ids == walked
        assert battle == Battle(battle_id="b", number=1, files=battle.files)
