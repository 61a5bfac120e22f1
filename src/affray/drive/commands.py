"""The referee's commands that change a fight: each is checked first, then emits events the state folds.

``damage`` and ``heal`` (hp by hand; damage disrupts a caster as a blow would; healing stops at the hit points the
combatant started with, ``heal NAME N temp`` gives temporary ones above them), ``add`` (a combatant joins),
``remove`` (one leaves), ``plan`` (the declarations still to come), ``condition`` and ``end`` (a condition set
or ended by hand, G-09). A driven fight records them with the moment they were entered and
applies them again at that moment when it replays (undo, resume).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, cast

from pydantic import ValidationError

from affray.dice.expr import parse_dice
from affray.drive.questions import AnswerError, check_declaration
from affray.engine.conditions import CONDITIONS, effect_of
from affray.engine.events import Damage, Declarer, Down, Event, Expire, Heal, Join, Leave, Note, Place, Replan, Tick
from affray.engine.fight import FOREVER, SAME, Fight, describe_declaration
from affray.engine.step import Step, Until
from affray.engine.words import the
from affray.errors import AffrayError
from affray.io.load import format_path, load_value, validation_problems
from affray.limits import MAX_COMBATANTS, MAX_FEET, MAX_HP
from affray.model.encounter import DECLARE_MODES, Combatant, Outcome
from affray.model.order import Order, order_of
from affray.model.place import RANK, step_away, toward_reach
from affray.reckon.morale import MoraleOptions, losses, morale_due, morale_score

__all__ = ["AHEAD", "COMMANDS", "MOVE_COMMAND", "CommandError", "FightCommand", "ahead_text", "parse_fight_command",
           "referee_move", "suggest", "typed_outcome", "whole"]

#: The commands that change a fight, with how each is typed.
COMMANDS = {
    "damage": "damage NAME N", "heal": "heal NAME N [temp]", "add": "add SIDE {...}", "remove": "remove NAME",
    "plan": "plan NAME [{...}]", "condition": "condition NAME C [N rounds]", "end": "end NAME [C]",
    "declare": "declare SIDE|NAME ask|auto|repeat", "morale": "morale SIDE [TOTAL]", "note": "note TEXT",
    "place": "place NAME X Y",
}
#: The referee's move of a combatant (``move NAME to X Y``, ``toward NAME``, ``away NAME [FEET]``): a command only
#: when a combatant's name follows ``move`` (else ``move 30`` is a declaration: ``referee_move``).
MOVE_COMMAND = "move NAME to X Y | toward NAME | away NAME [FEET]"
#: The command that says declarations ahead (``Fight.ahead``), as a session journals a group's answer or a change
#: typed before a combatant's turn: ``ahead {"who": [NAME, ...], "declare": ENTRY or "same"}`` (JSON).
AHEAD = "ahead"

FightCommand = Callable[[Fight[Any]], None]


class CommandError(AffrayError):
    """A command the console cannot carry out, with what would be right."""


def parse_fight_command(text: str, fight: Fight[Any]) -> FightCommand:  # noqa: C901
    """Check ``text`` against the fight as it stands; the returned command emits its events."""
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    if verb in ("damage", "heal"):
        return _hp(verb, rest, fight)
    if verb == "add":
        return _add(rest, fight)
    if verb == "remove":
        name = _fighter(rest, fight, verb)
        if not fight.state.fighters[name].active:
            raise CommandError(f"remove: {name} is already out of the fight")
        return lambda fight: _emit(fight, Leave, name, f"{name} leaves the fight (the referee)")
    if verb == "plan":
        return _plan(rest, fight)
    if verb == "condition":
        return _condition(rest, fight)
    if verb == "end":
        return _end(rest, fight)
    if verb == "declare":
        return _declarer(rest, fight)
    if verb == "morale":
        return _morale(rest, fight)
    if verb == "note":
        return _note(rest)
    if verb == AHEAD:
        return _ahead(rest, fight)
    if verb == "place":
        return _place(rest, fight)
    if verb == "move":
        return _move(rest, fight)
    raise CommandError(f"unknown command {verb!r}")


def referee_move(text: str, fight: Fight[Any]) -> bool:
    """Whether ``text`` is the referee's ``move NAME ...`` (a combatant's name after ``move``), not a declaration."""
    verb, _, rest = text.strip().partition(" ")
    if verb.lower() != "move":
        return False
    lowered = rest.strip().lower()
    return any(lowered == n.lower() or lowered.startswith(n.lower() + " ") for n in fight.state.fighters)


def _feet(text: str) -> int | None:
    """A coordinate in feet: a whole number, maybe negative, within the limit."""
    negative = text.startswith("-")
    n = whole(text[1:] if negative else text, MAX_FEET, 0)
    return None if n is None else -n if negative else n


def _placed(fight: Fight[Any], verb: str) -> None:
    if not fight.state.placed:
        raise CommandError(f"{verb}: this fight places nobody; give the file's sides (or combatants) at: [x, y] in "
                           "feet to play it on a map")


def _place_event(fight: Fight[Any], name: str, to: tuple[int, int], how: str) -> None:
    f = fight.state.fighters[name]
    frm = f.pos
    _emit(fight, Place, name, f"the referee {how} {name} {'to' if how == 'moves' else 'at'} {to[0]},{to[1]}"
          + (f" (from {frm[0]},{frm[1]})" if frm is not None else ""), from_=frm, to=to)


def _place(rest: str, fight: Fight[Any]) -> FightCommand:
    _placed(fight, "place")
    example = "place Brom 30 -10"
    name, tail = _lead(rest, fight, "place", example)
    words = tail.split()
    x, y = (_feet(words[0]), _feet(words[1])) if len(words) == 2 else (None, None)
    if x is None or y is None:
        raise CommandError(f"place: say `place NAME X Y`, X and Y whole feet from -{MAX_FEET} to {MAX_FEET}, "
                           f"e.g. {example}")
    to = (x, y)
    return lambda fight: _place_event(fight, name, to, "places")


def _move(rest: str, fight: Fight[Any]) -> FightCommand:
    _placed(fight, "move")
    example = "move Brom to 30 0, move Brom toward Orc, move Brom away Orc 30"
    name, tail = _lead(rest, fight, "move", example)
    how, _, more = tail.partition(" ")
    how = how.lower()
    words = more.split()
    here = fight.state.fighters[name].pos
    assert here is not None
    if how == "to" and len(words) == 2 and None not in (_feet(words[0]), _feet(words[1])):
        to = (_feet(words[0]) or 0, _feet(words[1]) or 0)
    elif how in ("toward", "away") and words:
        feet = whole(words[-1], MAX_FEET, 0) if len(words) > 1 else None
        other = _fighter(" ".join(words[:-1] if feet is not None else words), fight, "move")
        there = fight.state.fighters[other].pos
        assert there is not None
        if how == "toward":
            to = toward_reach(here, there, feet if feet is not None else MAX_FEET, RANK)
        else:
            to = step_away(here, there, feet if feet is not None else fight.state.fighters[name].mv * 10)
    else:
        raise CommandError(f"move: say {MOVE_COMMAND}, e.g. {example}")
    return lambda fight: _place_event(fight, name, to, "moves")


def _moment(fight: Fight[Any]) -> tuple[Tick, str]:
    """Where a referee's change is placed: at the moment of the last event (before the first: as the first period
    begins, so a duration counts from it)."""
    if fight.now:
        return fight.now, fight.now_at
    return fight.ruleset.period_end(0), "before the fight"


def _emit(fight: Fight[Any], cls: type[Event], actor: str | None, detail: str, **fields: Any) -> None:
    tick, at = _moment(fight)
    fight.emit(cls, tick, at, actor, detail=detail, **fields)


def _fighter(name: str, fight: Fight[Any], verb: str) -> str:
    """The combatant ``name`` names (in any case)."""
    found = {n.lower(): n for n in fight.state.fighters}.get(name.lower())
    if found is None:
        names = ", ".join(fight.state.fighters)
        raise CommandError(f"{verb}: no combatant named {name!r} (combatants: {names})")
    return found


def _lead(rest: str, fight: Fight[Any], verb: str, example: str) -> tuple[str, str]:
    """The combatant named at the start of ``rest`` (the longest name that fits, in any case), and what follows."""
    lowered = rest.lower()
    for n in sorted(fight.state.fighters, key=len, reverse=True):
        if lowered == n.lower() or lowered.startswith(n.lower() + " "):
            return n, rest[len(n):].strip()
    raise CommandError(f"{verb}: no combatant at the start of {rest!r}; e.g. {example}")


def typed_outcome(words: list[str]) -> Outcome | None:
    """``miss`` or ``hit N`` (lower case): an attack's outcome typed by the referee; None when it is not one."""
    if words == ["miss"]:
        return Outcome(hit=False, damage=0)
    if len(words) == 2 and words[0] == "hit" and (n := whole(words[1], MAX_HP, 0)) is not None:
        return Outcome(hit=True, damage=n)
    return None


def whole(text: str, most: int, least: int = 1) -> int | None:
    """``text`` as a whole number from ``least`` to ``most`` (ASCII digits only); None when it is not one."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)) or not least <= int(text) <= most:
        return None
    return int(text)


def _hp(verb: str, rest: str, fight: Fight[Any]) -> FightCommand:  # noqa: C901
    temp = verb == "heal" and rest.lower().endswith(" temp")
    if temp:
        rest = rest[:-5].rstrip()
    name, _, amount = rest.rpartition(" ")
    n = whole(amount, MAX_HP)
    if n is None:
        raise CommandError(f"{verb}: say `{verb} NAME N` with N a whole number of hit points from 1 to {MAX_HP} "
                           f"(limit), e.g. {verb} Orc 1 3" + (" (heal NAME N temp: above its starting hit points)"
                                                              if verb == "heal" else ""))
    name = _fighter(name.strip(), fight, verb)
    f = fight.state.fighters[name]
    if f.down:
        raise CommandError(f"{verb}: {name} is down; affray does not raise the fallen")
    if temp and f.hp + n > MAX_HP:
        raise CommandError(f"heal: {name} would have {f.hp + n} hp: at most {MAX_HP} (limit)")
    full = f.spec.hp  # healing gives back what was lost, never above the hit points it started the fight with
    if verb == "heal" and not temp and f.hp >= full:
        raise CommandError(f"heal: {name} is at its full {full} hp (or above); `heal {name} {n} temp` gives "
                           "temporary hit points above them")

    def damage(fight: Fight[Any]) -> None:
        f = fight.state.fighters[name]
        casting = f.casting
        _emit(fight, Damage, None, f"the referee deals {n} damage to {name}", target=name, damage=n)
        if casting is not None and f.casting == casting:  # G-11: as a blow would
            tick, at = _moment(fight)
            fight.disrupt(Step(tick, f, "melee", at), f, casting, f"{name} took {n} damage (the referee's hand) "
                          f"while casting {casting}")
        if f.hp <= 0 and not f.down:  # G-05: at 0 hp or less, down at once
            _emit(fight, Down, name, f"{name} at {f.hp} hp: dead", unconscious=False)

    def heal(fight: Fight[Any]) -> None:
        g = fight.state.fighters[name]
        if temp:
            _emit(fight, Heal, None, f"the referee gives {name} {n} temporary hp ({g.hp} -> {g.hp + n})",
                  target=name, amount=n, temp=True)
            return
        amount = min(n, g.spec.hp - g.hp)
        cap = f", {amount} back to its full {g.spec.hp}" if amount < n else ""
        _emit(fight, Heal, None, f"the referee heals {name} of {n} hp{cap}", target=name, amount=amount)

    return damage if verb == "damage" else heal


def _yaml(text: str, verb: str, example: str) -> Any:
    try:
        return load_value(text, verb)
    except ValueError as exc:
        raise CommandError(f"{verb}: {exc}; e.g. {example}") from None


def _invalid(verb: str, exc: ValidationError, data: Any, example: str) -> CommandError:
    """The first problem of a validation, in affray's words, with its field path."""
    loc, message = (validation_problems(exc, data) or [((), "not valid")])[0]
    where = f"{format_path(loc)}: " if loc else ""
    return CommandError(f"{verb}: {where}{message}; e.g. {example}")


def _add(rest: str, fight: Fight[Any]) -> FightCommand:
    example = "add orcs {name: Orc 9, hd: 1, hp: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}"
    side, _, spec_text = rest.partition(" ")
    side = {s.lower(): s for s in fight.state.sides}.get(side.lower(), side)
    if side not in fight.state.sides:
        raise CommandError(f"add: no side named {side!r} (sides: {', '.join(fight.state.sides)}); e.g. {example}")
    data = _yaml(spec_text, "add", example)
    if not isinstance(data, dict):
        raise CommandError(f"add: give the combatant as a mapping; e.g. {example}")
    try:
        spec = Combatant.model_validate(data)
    except ValidationError as exc:
        raise _invalid("add", exc, data, example) from None
    if spec.count != 1:
        raise CommandError("add: one combatant at a time (count: 1)")
    if len(fight.state.fighters) >= MAX_COMBATANTS:
        raise CommandError(f"add: the fight has {len(fight.state.fighters)} combatants: at most {MAX_COMBATANTS} "
                           "(limit)")
    if spec.name in fight.state.fighters:
        raise CommandError(f"add: {spec.name!r} is already in the fight; give another name")

    def add(fight: Fight[Any]) -> None:
        _emit(fight, Join, spec.name, f"{spec.name} joins {the(side)} ({spec.hp} hp, AC {spec.ac})", side=side,
              spec=spec)
        fight.ruleset.ready(fight, fight.state.fighters[spec.name])

    return add


def _plan(rest: str, fight: Fight[Any]) -> FightCommand:
    example = "plan Brom [{melee: Orc 2}, {melee: Orc Captain}]"
    name, text = _lead(rest, fight, "plan", example)
    data = _yaml(text or "[]", "plan", example)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise CommandError(f"plan: give a list of declarations; e.g. {example}")
    f = fight.state.fighters[name]
    decls = []
    for i, item in enumerate(data):
        try:
            decls.append(check_declaration(fight, f, item, now=False))
        except AnswerError as exc:
            raise CommandError(f"plan: declaration {i}: {exc}; e.g. {example}") from None
    plan = tuple(decls)

    def replan(fight: Fight[Any]) -> None:
        text = "; ".join(describe_declaration(d, fight.state.fighters[name]) for d in plan) or "nothing"
        _emit(fight, Replan, name, f"{name}'s declarations to come: {text}", plan=plan)
        if plan:  # a new word: it wins over an action held over or going on where the seed lets it change
            fight.replanned.add(name)
        fight.ruleset.ready(fight, fight.state.fighters[name])

    return replan


def _condition(rest: str, fight: Fight[Any]) -> FightCommand:
    """``condition NAME CONDITION [DURATION]``: the referee sets a condition, for a while or until ended (G-09)."""
    example = "condition Orc 1 asleep 5 rounds"
    name, text = _lead(rest, fight, "condition", example)
    words = text.split()
    if not words:
        raise CommandError(f"condition: name the condition (conditions: {', '.join(CONDITIONS)}); e.g. {example}")
    what, duration = words[0].lower(), " ".join(words[1:]).lower()
    if what not in CONDITIONS or what.startswith("dropped"):
        raise CommandError(f"condition: {what!r} is not a condition (conditions: {', '.join(CONDITIONS)}); "
                           f"e.g. {example}")
    f = fight.state.fighters[name]
    if not f.active:
        raise CommandError(f"condition: {name} is out of the fight")
    count_unit = None
    if duration:
        m = re.fullmatch(r"(\d{1,4})\s*(round|turn|phase|segment)s?", duration)
        if m is None:
            raise CommandError(f"condition: {duration!r} is not a duration: N rounds, turns, phases or segments; "
                               f"e.g. {example}")
        count_unit = int(m.group(1)), m.group(2)

    def apply(fight: Fight[Any]) -> None:
        tick, at = _moment(fight)
        until = fight.ruleset.expiry(fight, tick, *count_unit) if count_unit else Until(
            FOREVER, "the referee ends it", "no duration given: until the referee ends it")
        fight.set_condition(tick, at, f, what, until, by=None, rule="G-09",
                            why=f"the referee's hand: {name} is {what}"
                            + (f" for {duration}, to {until.at}" if duration else ", until the referee ends it")
                            + " (G-08, G-09)", detail=until.why or None)

    return apply


def _end(rest: str, fight: Fight[Any]) -> FightCommand:
    """``end NAME [CONDITION]``: the referee ends a condition (without one named: every condition it holds)."""
    name, what = _lead(rest, fight, "end", "end Orc 1 asleep")
    f = fight.state.fighters[name]
    what = what.lower()
    held = [c for c in f.conditions if not c.startswith("dropped")] if not what else [what]
    if not held or any(c not in f.conditions for c in held):
        having = ", ".join(f.conditions) or "none"
        raise CommandError(f"end: {name} holds no condition {what!r} (it holds: {having})" if what else
                           f"end: {name} holds no condition")

    def end(fight: Fight[Any]) -> None:
        tick, at = _moment(fight)
        for c in held:
            fight.emit(Expire, tick, at, None, why="the referee's hand ends it (G-09)", target=name, condition=c,
                       detail=f"{name} is no longer {c}")
            if not effect_of(c).acts and f.active:
                fight.ruleset.ready(fight, f)

    return end


def _declarer(rest: str, fight: Fight[Any]) -> FightCommand:
    """``declare SIDE|NAME ask|auto|repeat``: who answers their declarations from now on (CONTRACT "Who declares")."""
    example = "declare kobolds repeat"
    who, _, mode = rest.rpartition(" ")
    mode = mode.lower()
    if mode not in DECLARE_MODES or not who.strip():
        raise CommandError(f"declare: say who (a side or a combatant) and ask, auto or repeat; e.g. {example}")
    who = who.strip()
    state = fight.state
    side = {s.lower(): s for s in state.sides}.get(who.lower())
    if side is not None:
        members = tuple(f.name for f in state.sides[side])
        who = side
    else:
        who = _fighter(who, fight, "declare")
        members = (who,)
    words = {"ask": "asked", "auto": "played by their policy", "repeat": "kept from one declaration to the next"}

    def declarer(fight: Fight[Any]) -> None:
        _emit(fight, Declarer, None, f"the referee: {who}'s declarations {words[mode]} ({mode})", who=who, mode=mode,
              members=members)

    return declarer


def _morale(rest: str, fight: Fight[Any]) -> FightCommand:
    """``morale SIDE [TOTAL]``: the side checks morale now, on the referee's word (G-07), with the ruleset's dice:
    their total as rolled at the table, or rolled from the seed."""
    state = fight.state
    name, _, total = rest.strip().rpartition(" ")
    if not name or not total.isdigit():
        name, total = rest.strip(), ""
    side = {s.lower(): s for s in state.sides}.get(name.lower())
    if side is None:
        raise CommandError(f"morale: no side named {name!r} (sides: {', '.join(state.sides)}); "
                           f"e.g. morale {next(iter(state.sides))}")
    members = [f for f in state.sides[side] if f.active and not f.pc and not f.routed]
    if not members:
        why = "player characters never check morale (G-07)" if any(f.pc for f in state.sides[side]) else \
            "nobody of it is left to check (all down, fled or already routed)"
        raise CommandError(f"morale: {side}: {why}")
    opt = cast("MoraleOptions", fight.ruleset.opt)
    dice = parse_dice(opt.morale_dice)
    score = morale_score(fight, opt, side, members)
    given = whole(total, dice.dice_max, dice.dice_min) if total else None
    if total and given is None:
        raise CommandError(f"morale: {total} cannot be rolled on {dice.text} ({dice.dice_min}-{dice.dice_max})")

    due = morale_due(fight, side)[1]  # the checks due now are this one: no other is owed for them (G-07)

    def check(fight: Fight[Any]) -> None:
        tick, at = _moment(fight)
        fight.morale_check(side, members, score, tick, at, (*due, "the referee"),
                           f"the referee calls for a morale check of {the(side)} ({losses(fight, side)}) (G-07)", dice,
                           given)

    return check


def _note(rest: str) -> FightCommand:
    """``note TEXT``: the referee's words kept in the log."""
    text = rest.strip()
    if not text:
        raise CommandError("note: say what to keep, e.g. note the door is barred")

    def note(fight: Fight[Any]) -> None:
        _emit(fight, Note, None, text)

    return note


def _ahead(rest: str, fight: Fight[Any]) -> FightCommand:  # noqa: C901
    """Declarations said ahead (``AHEAD``): each named combatant takes ``declare`` (a plan entry, or "same": its
    standing declaration) at its next declaration point."""
    try:
        data = json.loads(rest)
    except ValueError:
        data = None
    who = data.get("who") if isinstance(data, dict) else None
    entry = data.get("declare") if isinstance(data, dict) else None
    point = data.get("point") if isinstance(data, dict) else None
    if not isinstance(who, list) or not who or not all(isinstance(n, str) for n in who):
        raise CommandError("ahead: give {\"who\": [NAME, ...], \"declare\": ENTRY or \"same\"}")
    if point is not None and (isinstance(point, bool) or not isinstance(point, int)):
        raise CommandError("ahead: point is the declaration point (a whole number) a group's answer serves")
    said: dict[str, Order | str] = {}
    for name in who:
        if name not in fight.state.fighters:
            raise CommandError(f"ahead: no combatant named {name!r}")
        f = fight.state.fighters[name]
        if entry == SAME:
            said[name] = SAME
            continue
        try:
            said[name] = order_of(check_declaration(fight, f, entry, now=False))
        except AnswerError as exc:
            raise CommandError(f"{name}: {exc}") from None

    def ahead(fight: Fight[Any]) -> None:
        fight.ahead.update(said)
        for name in said:
            if point is None:
                fight.ahead_for.pop(name, None)
            else:
                fight.ahead_for[name] = point

    return ahead


def ahead_text(names: list[str], entry: dict[str, Any] | str, point: int | None = None) -> str:
    """The ``ahead`` command that says ``entry`` (a plan entry, or "same") ahead for ``names``: for each one's next
    declaration point, or (``point``, a group's answer to a question) for that declaration point only."""
    data: dict[str, Any] = {"who": names, "declare": entry}
    if point is not None:
        data["point"] = point
    return f"{AHEAD} " + json.dumps(data, ensure_ascii=False, sort_keys=True)


def suggest(text: str, fight: Fight[Any], verbs: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """What may complete a command typed so far (``verbs``: a console's own besides these): (the part being
    typed, the words that may replace it)."""
    verb, space, rest = text.partition(" ")
    if not space:
        return text, [v for v in (*verbs, *COMMANDS) if v.startswith(text.lower())]
    state = fight.state
    verb = verb.lower()
    if verb == "add":
        return rest, [s for s in state.sides if s.lower().startswith(rest.lower())] if " " not in rest else []
    if verb == "dice":
        words = [*state.sides, "all", "initiative", "surprise", "attack", "damage", "morale", "save", "ask", "roll"]
        last = rest.split(" ")[-1]
        return last, [w for w in words if w.lower().startswith(last.lower())]
    if verb not in COMMANDS and not (verb == "move" and state.placed):  # the referee's move: placed fights only
        return rest, []
    lowered = rest.lower()
    for n in sorted(state.fighters, key=len, reverse=True):
        if lowered.startswith(n.lower() + " ") and verb in ("condition", "end"):  # the name is done
            after = rest[len(n) + 1:]
            if " " in after:
                return after, []
            pool = list(CONDITIONS) if verb == "condition" else list(state.fighters[n].conditions)
            return after, [c for c in pool if c.startswith(after.lower()) and not c.startswith("dropped")]
        if lowered.startswith(n.lower() + " ") and verb == "move" and state.placed:  # then its way (MOVE_COMMAND)
            return _way(rest[len(n) + 1:], fight, n)
    return rest, [n for n in state.fighters if n.lower().startswith(lowered)]


def _way(after: str, fight: Fight[Any], mover: str) -> tuple[str, list[str]]:
    """What may follow ``move NAME``: its way (``to``, ``toward``, ``away``), then the foe's name after ``toward``
    or ``away``; nothing to offer for ``to X Y``'s numbers."""
    way, space, rest = after.partition(" ")
    if not space:
        return after, [w for w in ("to", "toward", "away") if w.startswith(way.lower())]
    if way.lower() in ("toward", "away"):
        return rest, [n for n in fight.state.fighters if n != mover and n.lower().startswith(rest.lower())]
    return rest.rpartition(" ")[2], []
