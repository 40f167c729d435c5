"""The rule-set kernel: one engine, written once, that runs any rule set.

A rule set is a value (:class:`RuleSet`): its state type, its deciders and evolvers as explicit
tables (command class -> decider, event class -> evolver), the commands that set a campaign up,
and optional capabilities (what each side may see, which side a command acts for, battle
files). The command and event codecs are derived from those tables, so a command no rule
handles cannot even be decoded, and nothing is registered by importing a module.

The engine is pure: ``decide(state, command, dice) -> events`` validates a command against the
folded state (raising :class:`~mekref.rules.refusal.Refusal` when the rules say no) and
``evolve(state, event) -> state`` applies one event and never refuses: an event is a fact already
in the log. Dice come in as a cursor at ``state.rolls_used`` (a set-up command starts at roll 0
of the seed it brings); every roll a decision makes is stored in its event, and evolve moves the
cursor past them, so replaying the log reproduces the same state and the next decision draws
the same faces. The state hash is the sha256 of the state's canonical JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from mekref.rules.allowed import decide_allowed
from mekref.rules.battle_files import BattleFiles
from mekref.rules.codec import JsonValue, canonical_json, content_hash, decode, to_jsonable
from mekref.rules.dice import Dice, require_cursor
from mekref.rules.messages import Codec, Command, Event
from mekref.rules.records import copy_with
from mekref.rules.refusal import Refusal


class KernelState(Protocol):
    """What the engine needs of every rule set's state: the dice and the log's bookkeeping."""

    @property
    def seed(self) -> str: ...

    @property
    def rolls_used(self) -> int: ...

    @property
    def events_applied(self) -> int: ...


S = TypeVar("S", bound=KernelState)
S_contra = TypeVar("S_contra", bound=KernelState, contravariant=True)
Decider = Callable[[S, Any, Dice], list[Event]]
Evolver = Callable[[S, Any], S]


class SetupCommand(Protocol):
    """A command that creates a campaign brings the seed its dice will use."""

    @property
    def seed(self) -> str: ...


class SideViews(Protocol[S_contra]):
    """Capability: what each side may see of a campaign (fog of war, secret orders).

    Every per-side channel (views, the event stream, reports) derives from this one rule."""

    def sides(self, state: S_contra) -> Mapping[str, str]:
        """Side id -> name: the sides a token may be issued for."""
        ...

    def view(self, state: S_contra, side: str) -> JsonValue:
        """The part of the state ``side`` may know, as JSON-ready values."""
        ...

    def event_for(
        self, state: S_contra, event: dict[str, JsonValue], side: str
    ) -> dict[str, JsonValue] | None:
        """A stored event (its JSON, ``{"type": ..., ...}``) as ``side`` may see it, given
        the campaign's current state: whole, with secret fields removed, or None when the
        side must not learn of it at all."""
        ...


@dataclass(frozen=True)
class Section:
    """One part of a rule set's summary of a campaign, in words (``mekref game report``)."""

    title: str
    lines: tuple[str, ...]


def _never_over(_state: Any) -> str | None:
    return None


def _referee_only(_state: Any, _command: Command) -> str | None:
    return None


@dataclass(frozen=True)
class RuleSet(Generic[S]):
    """One rule set, as the kernel runs it."""

    name: str
    title: str
    state_type: type[S]
    deciders: Mapping[type[Command], Decider[S]]
    evolvers: Mapping[type[Event], Evolver[S]]
    #: Commands that create the campaign: allowed only before it exists; their dice start at
    #: roll 0 of the seed they bring.
    setup: tuple[type[Command], ...]
    started: Callable[[S], bool]
    #: The refusal for any other command before set-up: (code, message).
    not_started: tuple[str, str]
    #: What the log is called in messages ("campaign", "game", "scenario").
    noun: str = "campaign"
    #: Why the campaign is over (no command is decided after that), or None while it runs.
    over: Callable[[S], str | None] = _never_over
    #: The side a command acts for, or None when only the referee may give it. The API lets a
    #: side's token run a command only when this names that side.
    acting_side: Callable[[S, Command], str | None] = _referee_only
    #: What each side may see; None: every side sees the whole state.
    views: SideViews[S] | None = None
    #: The dataclass a side's view has (its JSON is that dataclass's), for the typed API;
    #: None: a side's view is the state with secrets left out or emptied.
    side_view_type: type | None = None
    #: Turns MegaMek battle files into commands; None: the rule set takes no battle files.
    battle_files: BattleFiles[S] | None = None
    #: The outcome of an event in words, for people; the kernel's default names its fields.
    describe: Callable[[Event], str] | None = None
    #: The campaign in words, section by section, as the referee (side None) or one side sees
    #: it; None: the rule set has its own report command. :meth:`report_for` gives a side's
    #: summary the state as that side's view shows it, never the whole state.
    summarize: Callable[[S, str | None], tuple[Section, ...]] | None = None
    #: The names a campaign gives its string fields (its Houses, Regions, fleets, sides...),
    #: by field name, from the tables the rules check them against: ``mekref game do`` matches
    #: a typed name without case and ``game commands --campaign`` lists them. None: no such names.
    field_names: Callable[[S], Mapping[str, tuple[str, ...]]] | None = None
    commands: Codec[Command] = field(init=False, repr=False, compare=False)
    events: Codec[Event] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        missing = [c.__name__ for c in self.setup if c not in self.deciders]
        if missing:
            raise ValueError(f"{self.name}: set-up commands without a decider: {missing}")
        object.__setattr__(self, "commands", Codec("command", self.deciders))
        object.__setattr__(self, "events", Codec("event", self.evolvers))

    # -- the engine ------------------------------------------------------------------------
    def initial_state(self) -> S:
        return self.state_type()

    def dice_for(self, state: S, command: Command | None = None) -> Dice:
        """The dice cursor a decision on ``state`` must use (a set-up command: roll 0 of the
        seed it brings; no command: the state's own cursor)."""
        if command is not None and isinstance(command, self.setup):
            return Dice(_seed_of(command), 0)
        return Dice(state.seed, state.rolls_used)

    def decide(self, state: S, command: Command, dice: Dice) -> list[Event]:
        decider = self.deciders.get(type(command))
        if decider is None:
            raise Refusal(
                "unknown_command",
                f"{self.title} has no command {command.TYPE or type(command).__name__}",
            )
        if isinstance(command, self.setup):
            require_cursor(dice, _seed_of(command), 0, self.noun)
            return decide_allowed(lambda c: decider(state, c, dice), command)
        if not self.started(state):
            raise Refusal(*self.not_started)
        reason = self.over(state)
        if reason is not None:
            raise Refusal("game_over", f"the {self.noun} is over: {reason}")
        require_cursor(dice, state.seed, state.rolls_used, self.noun)
        return decide_allowed(lambda c: decider(state, c, dice), command)

    def evolve(self, state: S, event: Event) -> S:
        return evolve_with(self.evolvers, state, event)

    def fold(self, events: Iterable[Event], state: S | None = None) -> S:
        current = self.initial_state() if state is None else state
        for event in events:
            current = self.evolve(current, event)
        return current

    def execute(self, state: S, command: Command) -> tuple[list[Event], S]:
        """Decide with the state's own dice cursor and fold the result."""
        events = self.decide(state, command, self.dice_for(state, command))
        return events, self.fold(events, state)

    def state_hash(self, state: S) -> str:
        """sha256 of the state's canonical JSON: equal states hash equal on any machine."""
        return content_hash(state)

    # -- what people and sides see ---------------------------------------------------------
    def outcome(self, event: Event) -> str:
        """One line saying what ``event`` changed."""
        if self.describe is not None:
            return self.describe(event)
        return describe_fields(event)

    def view_for(self, state: S, side: str | None) -> JsonValue:
        """The state as ``side`` may see it; None is the referee, who sees everything."""
        if side is None or self.views is None:
            return to_jsonable(state)
        return self.views.view(state, side)

    def report_for(self, state: S, side: str | None) -> tuple[Section, ...]:
        """The campaign in words as ``side`` (None: the referee) may know it.

        A side's summary is written from its view decoded back into the state type, so a fact
        the view hides (a face-down card, another fleet's Field Order, the seed) cannot reach
        the words: one rule decides what a side sees, in JSON and in the report alike."""
        if self.summarize is None:
            raise ValueError(f"{self.title} has no summary in words")
        if side is None or self.views is None:
            return self.summarize(state, side)
        if self.side_view_type is not None:
            raise ValueError(f"{self.title}: a side's view is not its state; no side summary")
        seen = decode(self.state_type, self.views.view(state, side))
        return self.summarize(seen, side)

    def sides_of(self, state: S) -> Mapping[str, str]:
        """Side id -> name of the campaign's sides (none known: an empty mapping)."""
        return self.views.sides(state) if self.views is not None else {}

    def event_for(
        self, state: S, event: dict[str, JsonValue], side: str | None
    ) -> dict[str, JsonValue] | None:
        """A stored event's JSON as ``side`` (None: the referee) may see it, or None."""
        if side is None or self.views is None:
            return event
        return self.views.event_for(state, event, side)


def evolve_with(evolvers: Mapping[type[Event], Evolver[S]], state: S, event: Event) -> S:
    """Apply ``event`` with its evolver and move the log's bookkeeping on: the dice cursor past
    the rolls the event records, and the count of events applied. (A rule set whose deciders
    need the state after each event of one decision calls this with its own table.)"""
    apply = evolvers.get(type(event))
    if apply is None:
        raise ValueError(f"no fold for event {type(event).__name__}")
    new = apply(state, event)
    rolls_used = max([new.rolls_used, *(r.index + 1 for r in event.rolls)])
    # copy_with is dataclasses.replace for a plain state class, at a fraction of the cost.
    return copy_with(new, rolls_used=rolls_used, events_applied=state.events_applied + 1)


def _seed_of(command: Command) -> str:
    seed = getattr(command, "seed", None)
    if not isinstance(seed, str):
        raise TypeError(f"set-up command {type(command).__name__} has no seed")
    return seed


def describe_fields(event: Event) -> str:
    """``Type: field=value, ...`` with the dice shown as faces: the fallback description."""
    body = to_jsonable(event)
    assert isinstance(body, dict)
    return describe_json({"type": event.TYPE, **body})


def describe_json(event: Mapping[str, JsonValue]) -> str:
    """The fallback description of an event's JSON (as a side may see it, cut or whole)."""
    body = dict(event)
    kind = str(body.pop("type", "event"))
    rolls = body.pop("rolls", None) or []
    body.pop("actor", None)
    parts = [f"{k}={_short(v)}" for k, v in body.items() if v not in (None, [], {}, "")]
    dice = [
        f"{r['name']} = {'+'.join(map(str, r['faces']))}"
        for r in rolls
        if isinstance(r, dict) and isinstance(r.get("faces"), list)
    ]
    text = f"{kind}: {', '.join(parts)}" if parts else kind
    return f"{text} ({'; '.join(dice)})" if dice else text


def _short(value: JsonValue, limit: int = 80) -> str:
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        text = ", ".join(map(str, value))
        text = f"[{text}]"
    else:
        text = canonical_json(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
