"""Write an engagement's MegaMek scenario file (and its game options file) to a folder.

The shell around ``rules.tripwire.turn.export_mms`` (what goes in) and
``adapters.megamek.mms_writer`` (the text): it lists MegaMek's boards when given its board
folder, maps house rules to MegaMek game options, checks the text with the same checker MegaMek's
own scenarios pass, and writes ``<engagement>.mms`` plus ``<engagement>-options.xml``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mms_check import check_mms, check_playable, parse_mms
from mekref.adapters.megamek.mms_options import read_game_options
from mekref.adapters.megamek.mms_writer import game_options_xml, mms_gaps, write_mms
from mekref.hexmap.megamek_boards import BoardMap, laid_over, parse_board_map, shipped_board_map
from mekref.rules.house_rules.tactical import tactical_rules
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.export import engagement, scenario_entities, scenario_notes
from mekref.rules.tripwire.turn.export_mms import engagement_scenario, resolve_boards

BOARD_SUFFIX = ".board"
#: Where MegaMek keeps the host's saved game options (``GameOptions.GAME_OPTIONS_FILE_NAME``).
HOST_OPTIONS_HINT = "mmconf/gameoptions.xml"


def host_game_options(path: Path) -> tuple[tuple[str, str], ...]:
    """The host's saved game options (MegaMek's ``mmconf/gameoptions.xml``), or a refusal."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise Refusal("no_host_options", f"--host-options {path}: {exc.strerror}") from exc
    try:
        return read_game_options(data, str(path))
    except ValueError as exc:
        raise Refusal("bad_host_options", str(exc)) from exc


def megamek_boards(folder: Path) -> tuple[str, ...]:
    """Board names under MegaMek's ``data/boards`` (paths relative to it, no suffix), as the
    scenario loader's ``Maps=`` takes them."""
    if not folder.is_dir():
        raise Refusal("no_boards", f"--boards-dir {folder}: not a folder (MegaMek's data/boards)")
    return tuple(
        sorted(
            p.relative_to(folder).with_suffix("").as_posix()
            for p in folder.rglob(f"*{BOARD_SUFFIX}")
            if p.is_file()
        )
    )


def board_map(path: Path | None) -> BoardMap:
    """The shipped board mapping, with the referee's file (``--board-map``) laid over it."""
    if path is None:
        return shipped_board_map()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Refusal("no_board_map", f"--board-map {path}: cannot read ({exc})") from exc
    try:
        return laid_over(shipped_board_map(), parse_board_map(text, str(path)))
    except ValueError as exc:
        raise Refusal("bad_board_map", str(exc)) from exc


def house_rule_options(keys: Sequence[str]) -> tuple[tuple[tuple[str, str], ...], list[str]]:
    """MegaMek game options of the tactical house rules ``keys``, and a sheet line for each rule
    MegaMek has no option for: the players apply it at the table, so it is named in the file's
    notes and the command's output, never dropped (issue 29, item 4)."""
    rules = {r.key: r for r in tactical_rules()}
    unknown = [k for k in keys if k not in rules]
    if unknown:
        raise Refusal("unknown_house_rule", f"no tactical house rule {unknown} ({sorted(rules)})")
    options = tuple((str(rules[k].megamek_option), "true") for k in keys if rules[k].megamek_option)
    sheet = [
        f"house rule {rules[k].title} (line {rules[k].ref.line}): MegaMek has no game option "
        "for it; the players apply it at the table"
        for k in keys
        if not rules[k].megamek_option
    ]
    return options, sheet


@dataclass(frozen=True, kw_only=True)
class EngagementMms:
    file_name: str
    text: str
    options_name: str | None  # None: no game option switched, no options file
    options_xml: str | None
    warnings: tuple[str, ...]


def build_engagement_mms(
    state: CampaignState,
    engagement_id: str,
    designs_of: Callable[[str], Mapping[str, UnitDesign]],
    *,
    boards: Sequence[str] | None = None,
    players: Mapping[str, str] | None = None,
    house_rules: Sequence[str] = (),
    host_options: Sequence[tuple[str, str]] | None = None,
    boards_map: BoardMap | None = None,
) -> EngagementMms:
    """The engagement's scenario text (checked) and options file, and what to warn about."""
    e = engagement(strategic_of(state), engagement_id)
    entities = {
        side: scenario_entities(state, engagement_id, side, designs=designs_of(side))
        for side in e.sides
    }
    options_name = f"{engagement_id}-options.xml"
    mapping = boards_map or shipped_board_map()
    found, board_warnings = resolve_boards(e.map_sheets, mapping.boards, boards)
    options, sheet = house_rule_options(house_rules)
    export = engagement_scenario(
        state,
        engagement_id,
        entities,
        boards=found,
        random_dirs=mapping.random_dirs,
        players=players,
        options=options,
        options_file=options_name,
        host_options=host_options,
    )
    scenario = replace(export.scenario, notes=(*export.scenario.notes, *sheet))
    text = write_mms(scenario)
    switched = export.scenario.options_file is not None
    m = parse_mms(text)
    problems = check_mms(m) + check_playable(m, dict(export.options) if switched else None)
    if problems:  # a writer bug: never hand the host a file MegaMek would stumble on
        raise Refusal("bad_scenario", f"{engagement_id}.mms fails the check: {problems}")
    warnings: list[str] = [*board_warnings, *sheet]
    if export.missing_boards:
        why = (
            "no board mapped or of that name"
            if boards is not None
            else "no board mapped, no --boards-dir given"
        )
        warnings.append(
            f"RANDOM board for {', '.join(export.missing_boards)} ({why}), drawn from "
            f"{', '.join(export.scenario.random_dirs)}"
        )
    if switched:
        on = ", ".join(n for n, _ in export.switched)
        warnings.append(
            f"{options_name} switches on {on} over the host's options from --host-options"
            if host_options is not None
            else f"{options_name} switches on {on} over MegaMek's defaults, not the host's own "
            f"options: give --host-options <MegaMek folder>/{HOST_OPTIONS_HINT} to keep them"
        )
    warnings += mms_gaps(export.scenario)
    warnings += [n for side in e.sides for n in side_notes(state, engagement_id, side)]
    return EngagementMms(
        file_name=f"{engagement_id}.mms",
        text=text,
        options_name=options_name if switched else None,
        options_xml=game_options_xml(export.options) if switched else None,
        warnings=tuple(warnings),
    )


def side_notes(state: CampaignState, engagement_id: str, side_id: str) -> list[str]:
    """The side's crew notes (``scenario_notes``), each led by the side's name: the scenario
    holds every side's units, so the export of one side warns about the other side's too, and
    says whose unit each is (as ``mms_gaps`` leads with the MegaMek player)."""
    side = state.sides[side_id].name if side_id in state.sides else side_id
    return [f"{side}: {n}" for n in scenario_notes(state, engagement_id, side_id)]


def distinct_warnings(*groups: Iterable[str]) -> list[str]:
    """Each warning once, in the order first given. The same line can come from several groups
    (a side's list notes, then the scenario's notes for every side) or twice in one group (two
    units of one design with the same note): within a group each copy is another unit, so a
    line a group holds N times is shown once with "(N times)", N the most any group held."""
    counts: Counter[str] = Counter()
    for group in groups:
        counts |= Counter(group)  # the most of any one group: the groups overlap, not add
    return [w if n == 1 else f"{w} ({n} times)" for w, n in counts.items()]


def write_engagement_mms(built: EngagementMms, out_dir: Path) -> list[str]:
    """Write the files; return the files written (the warnings are ``built.warnings``)."""
    target = out_dir / built.file_name
    target.write_text(built.text, encoding="utf-8")
    said = [f"wrote {target}"]
    if built.options_name is not None and built.options_xml is not None:
        (out_dir / built.options_name).write_text(built.options_xml, encoding="utf-8")
        said.append(f"wrote {out_dir / built.options_name}")
    return said
