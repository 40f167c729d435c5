"""Ruling SG-7: a later save of a game already in a battle supersedes the earlier one.

A referee who applied a round autosave as the game's end (``battle ingest --game-over``) and
then receives the game's real last save must not book a second battle on the same units. Two
savegames are saves of **one game** when both came in by the referee's doors (a side's upload
speaks for that side only, BR-15) and they name exactly the same campaign units: the units carry
the campaign's own ids (``externalId``) from the scenario export to the end of the game, and a
MegaMek game keeps every unit it started with (in the game or out of it). MegaMek writes no id of
the game itself that a campaign could rely on (0.43's ``externalGameId`` is 0 unless MekHQ set
it; current saves carry none), so the units are the game's identity.

One save is **later** than another by MegaMek's round, then by its phase in the order of
MegaMek's ``GamePhase`` enum (the order a round passes through them; ``VICTORY`` after the last).
A later save of the game of an open battle takes the earlier one's place: both stay among the
battle's files (the earlier one's bytes stay "already applied"), but the battle is resolved from
the later one only. A save that is not later (an older autosave arriving late) is
refused; a later save of a game whose battle is already resolved opens no second battle: it
corrects the condition the battle booked (``battle_correct_save``). Pure: the decision reads
the campaign state only.
"""

from __future__ import annotations

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import SAVEGAME_ROOT, Battle, BattleFile
from mekref.rules.tripwire.state import CampaignState

#: MegaMek's ``GamePhase`` in declaration order (megamek/common/enums/GamePhase.java,
#: MegaMek commit 1f6b7951488aa9bc24a0584bf4fa7952b7f24fa2), which MegaMek itself compares
#: phases by (``isDuringOrAfter``). 0.43 wrote ``PHASE_PREFIRING`` for ``PRE_FIRING``.
PHASES = (
    "UNKNOWN",
    "LOUNGE",
    "SELECTION",
    "EXCHANGE",
    "DEPLOYMENT",
    "INITIATIVE",
    "INITIATIVE_REPORT",
    "SBF_DETECTION",
    "SBF_DETECTION_REPORT",
    "TARGETING",
    "TARGETING_REPORT",
    "PREMOVEMENT",
    "MOVEMENT",
    "MOVEMENT_REPORT",
    "OFFBOARD",
    "OFFBOARD_REPORT",
    "POINTBLANK_SHOT",
    "PRE_FIRING",
    "FIRING",
    "FIRING_REPORT",
    "PHYSICAL",
    "PHYSICAL_REPORT",
    "END",
    "END_REPORT",
    "VICTORY",
)
#: Phases MegaMek declares after VICTORY but passes before the first round's fighting.
_EARLY = {"DEPLOY_MINEFIELDS", "STARTING_SCENARIO", "SET_ARTILLERY_AUTO_HIT_HEXES", "PREFIRING"}


def phase_rank(phase: str) -> int:
    """Where ``phase`` falls in a round; an unknown name ranks first (never "later")."""
    if phase == "PREFIRING":
        return PHASES.index("PRE_FIRING")
    if phase in _EARLY:
        return PHASES.index("DEPLOYMENT")
    return PHASES.index(phase) if phase in PHASES else 0


def moment(file: BattleFile) -> tuple[int, int]:
    return (file.game_round if file.game_round is not None else -1, phase_rank(file.game_phase))


def said(file: BattleFile) -> str:
    """``round 6, end report phase`` (the words ``mekref status`` uses for a held save)."""
    phase = (file.game_phase or "unknown").lower().replace("_", " ")
    shown = file.game_round if file.game_round is not None else "?"
    return f"round {shown}, {phase} phase"


def _save(file: BattleFile) -> bool:
    return file.root == SAVEGAME_ROOT and file.game_round is not None


def _referee_save(file: BattleFile) -> bool:
    return _save(file) and file.uploaded_by is None


def earlier_save(state: CampaignState, file: BattleFile) -> tuple[Battle, BattleFile] | None:
    """The battle holding a save of the same game as ``file`` and that save (the last one in
    force), or None. ``file`` may come by any door (a side's upload too: it is matched the same
    way); only savegames the referee's doors brought are looked for among a battle's files."""
    if not _save(file):
        return None
    units = frozenset(u.unit_id for u in file.units)
    book = state.battles.battles
    found: tuple[Battle, BattleFile] | None = None
    for battle_id in book:
        battle = book[battle_id]
        if not units <= battle.unit_ids:
            continue
        for known in battle.in_force:
            if _referee_save(known) and frozenset(u.unit_id for u in known.units) == units:
                found = (battle, known)
    return found


def check_supersedes(battle: Battle, earlier: BattleFile, file: BattleFile) -> None:
    """Refused unless ``file`` is a later save than ``earlier``. A later save of a resolved
    battle's game corrects what the battle booked (``battle_correct_save``)."""
    if moment(file) <= moment(earlier):
        raise Refusal(
            "not_a_later_save",
            f"this savegame ({said(file)}) is a save of the game battle {battle.battle_id} "
            f"already holds as {earlier.path} ({said(earlier)}), and it is not a later one: "
            "nothing applied (an earlier save never replaces a later one, ruling SG-7)",
        )


def superseding(
    state: CampaignState, file: BattleFile, battle_id: str | None
) -> tuple[Battle, BattleFile] | None:
    """The battle and the earlier save ``file`` supersedes (None: it supersedes nothing);
    refused when it may not (see :func:`check_supersedes`) or names another battle."""
    earlier = earlier_save(state, file)
    if earlier is None:
        return None
    battle, known = earlier
    if file.uploaded_by is not None:
        raise Refusal(
            "side_save_of_held_game",
            f"this savegame ({said(file)}) is a save of the game battle {battle.battle_id} "
            f"holds from the referee's save ({said(known)}); a side's upload "
            "speaks for that side only (ruling BR-15) and does not replace the referee's save "
            "of every side: nothing applied and no second battle opened. Hand the file to the "
            "referee, who applies it with `mekref battle ingest` or the watched folder "
            "(ruling SG-7)",
        )
    check_supersedes(battle, known, file)
    if battle_id is not None and battle_id != battle.battle_id:
        raise Refusal(
            "wrong_battle",
            f"this savegame is a later save of the game of battle {battle.battle_id}, "
            f"not of battle {battle_id} (ruling SG-7)",
        )
    return earlier


def note(battle_id: str, earlier: BattleFile, later: BattleFile) -> str:
    """What the referee reads of a supersession (the ingest's output, the battle report)."""
    return (
        f"{later.path} ({said(later)}) supersedes {earlier.path} ({said(earlier)}) in battle "
        f"{battle_id}: a later save of the same game; the battle is resolved from the later "
        "save (ruling SG-7)"
    )


def correction_note(battle_id: str, earlier: BattleFile, later: BattleFile) -> str:
    """The note of a later save that corrected a resolved battle (revised SG-7)."""
    return (
        f"{later.path} ({said(later)}) replaces the result of {earlier.path} ({said(earlier)}) "
        f"in resolved battle {battle_id}: the final save corrects the booked condition "
        "(ruling SG-7)"
    )


def superseded_note(battle: Battle, earlier: BattleFile) -> str:
    """The note for ``earlier``, a file of ``battle`` a later save superseded."""
    units = frozenset(u.unit_id for u in earlier.units)
    after = battle.files[battle.files.index(earlier) + 1 :]
    for later in after:  # the next save of the same game to arrive replaced it
        if _referee_save(later) and frozenset(u.unit_id for u in later.units) == units:
            if later.sha256 in battle.corrected_by:
                return correction_note(battle.battle_id, earlier, later)
            return note(battle.battle_id, earlier, later)
    return f"{earlier.path} ({said(earlier)}) was superseded by a later save (ruling SG-7)"
