"""The random referee (issue 37): fights played the way people play them, at random, against the rules' invariants.

As OpenSpiel plays every game at random, this plays a small fight under a ruleset through the one table session
(``affray.table.Session``, what the console, the page and ``affray drive`` all use), choosing at random, seeded,
from what each question offers: its suggestion (Enter), one of its ``choices``, a group's line (``kobolds: {...}``,
``all: same``), a declaration said ahead for another combatant (``NAME: {...}``), ``declare WHO ask|auto|repeat``,
the referee's commands (``damage``, ``heal``, ``morale``, ``condition``), ``undo`` and ``back``, ``round`` and
``step``, dice typed or rolled. After every event it checks what the rules hold whatever is played:

- nobody down, fled, asleep, held, paralysed, unconscious or stunned acts (an attack of opportunity included), and
  nobody routed attacks or casts (G-05, G-07, G-09; CONTRACT "Conditions");
- no attack or spell lands on a combatant who fell at an earlier moment (G-05; a simultaneous one may, C2-05);
- an automatic hit on a helpless target strikes that target (G-09);
- hit points never rise above those a combatant started the fight with;
- every suggestion and every offered choice is accepted (the one validator, STYLE.md);
- a pause comes only where one was asked for (``step``, ``round``), never after ``back`` and a new answer;
- what the screens say can still happen: no step shown as coming of one out of the fight or asleep, no morale
  shown as due once the side has checked after its last casualty;
- the same inputs give the same events: the fight rebuilt from its recorded inputs is the same, event for event.

The first violation raises ``Violation`` naming the ruleset, the seed and the first offending event.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from affray import load_text, prepare
from affray.drive import ROLL, AnswerError, DeclareQuestion, DieQuestion, End, check_declaration
from affray.drive.driven import Drive
from affray.engine.conditions import active, effect_of
from affray.engine.events import Event
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.render.status import morale_due, still_to_come
from affray.table import Pause, Session, Shown, plain_event

__all__ = ["RandomReferee", "Violation", "encounter"]

#: The player characters a fight may have (catalogue names; figures small enough that a fight ends in a few rounds).
PCS = [
    "{name: Aldric, class: fighter, level: 3, hp: 22, armour: chain mail, weapons: [long sword, short bow]}",
    "{name: Tam, class: cleric, level: 3, hp: 16, armour: chain mail, weapons: [mace], "
    "spells: [cure light wounds, command, {name: hold person (priest), count: 1}]}",
    "{name: Mina, class: wizard, level: 3, hp: 9, dex: 16, weapons: [dagger], spells: [sleep, magic missile]}",
    "{name: Theo, class: thief, level: 3, hp: 12, dex: 17, armour: leather, weapons: [short sword, sling]}",
    "{name: Hob, class: fighter, level: 1, hp: 9, henchman: true, weapons: [short sword, light crossbow]}",
]
#: The foes (catalogue monsters; a shaman who casts too).
FOES = [
    "{monster: kobold, count: 3}",
    "{monster: goblin, count: 2}",
    "{monster: orc, count: 2}",
    "{monster: gnoll}",
    "{name: Shaman, class: cleric, level: 2, hp: 10, weapons: [mace], spells: [command, cure light wounds]}",
]
ACTIONS = ("melee", "missile", "cast-start", "cast", "misc", "wait", "move")


class Violation(AssertionError):
    """An invariant broken: the ruleset, the seed and the first offending event."""


def encounter(rng: random.Random, ruleset: str) -> str:
    """A small fight of 2-3 PCs against 2-3 groups of foes, under ``ruleset``, as YAML."""
    pcs = rng.sample(PCS, rng.randint(2, 3))
    foes = rng.sample(FOES, rng.randint(2, 3))
    declare = rng.choice(["ask", "repeat", "auto"])
    surprise = rng.choice(["none", "none", "check"])
    options = ""
    if ruleset.startswith("combat2") and rng.random() < 0.3:
        options = "options: {crits: c2-tables}\n"
    return (f"ruleset: {ruleset}\nseed: {rng.randrange(1000)}\nsurprise: {surprise}\n{options}sides:\n"
            f"  party:\n    pc: true\n    combatants:\n" + "".join(f"      - {p}\n" for p in pcs)
            + f"  foes:\n    declare: {declare}\n    combatants:\n" + "".join(f"      - {f}\n" for f in foes))


class Seen:
    """What the events so far made of the fight, as far as the invariants need it."""

    def __init__(self) -> None:
        self.out: dict[str, tuple[Any, ...]] = {}  # who is out of the fight, and the tick it went
        self.conditions: dict[str, dict[str, tuple[Any, Any]]] = {}  # name -> condition -> (since, until)
        self.routed: set[str] = set()
        self.checked: dict[str, int] = {}  # side -> the event of its last morale check
        self.lost: dict[str, int] = {}  # side -> the event of its last casualty
        self.temp: dict[str, int] = {}  # name -> temporary hit points the referee gave (``heal NAME N temp``)
        self.said: dict[str, dict[str, Any]] = {}  # name -> the declaration said ahead for it, not yet declared

    def note(self, e: Event, seq: int, state: Any) -> None:  # noqa: C901
        kind = e.kind
        leaves = kind == "move" and getattr(e, "leaves", False) and not getattr(e, "stopped", False)
        if (kind in ("down", "leave", "surrender") or leaves) and e.actor is not None:
            self.out.setdefault(e.actor, e.tick)
            self.lost[state.fighters[e.actor].side] = seq
        elif kind == "morale" and getattr(e, "side", None):
            self.checked[e.side] = seq  # type: ignore[attr-defined]
            members = getattr(e, "members", ())
            if getattr(e, "passed", True):
                if getattr(e, "rally", False):
                    self.routed -= set(members)
            else:
                self.routed |= set(members)
                if getattr(e, "surrender", False):
                    for name in members:
                        self.out.setdefault(name, e.tick)
        elif kind == "condition":
            held = self.conditions.setdefault(e.target, {})  # type: ignore[attr-defined]
            end = getattr(e, "end", None)
            if end is None:
                held.pop(e.condition, None)  # type: ignore[attr-defined]
            else:
                since = getattr(e, "since", None)
                held[e.condition] = (tuple(since) if since is not None else e.tick, tuple(end))  # type: ignore
        elif kind == "heal" and getattr(e, "temp", False):
            self.temp[e.target] = self.temp.get(e.target, 0) + e.amount  # type: ignore[attr-defined]
        elif kind == "expire" and getattr(e, "condition", None):
            self.conditions.get(e.target or "", {}).pop(e.condition, None)  # type: ignore[attr-defined]


class RandomReferee:
    """One fight under ``ruleset`` played at random from ``seed``: ``play()`` raises ``Violation`` at the first
    broken invariant."""

    def __init__(self, ruleset: str, seed: int, *, rounds: int = 5, moves: int = 1500, survey: bool = False) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.rng = random.Random(f"{ruleset}/{seed}")
        self.text = encounter(self.rng, ruleset)
        self.prepared = prepare(load_text(self.text))
        self.rounds = rounds
        self.moves = moves
        dice = "ask" if self.rng.random() < 0.3 else "roll"
        self.session = Session(self.prepared.drive(announce=True, max_rounds=rounds, dice=dice))
        self.asked_pause = False  # the referee asked to go a step or a round at a time
        self.seen = Seen()
        self.noted = 0  # the events checked so far
        self.log: list[str] = []  # what the referee did, for the message
        self.survey = survey
        self.found: dict[str, Violation] = {}

    # -- what is wrong -----------------------------------------------------------------------------------------
    def fail(self, key: str, what: str, event: Event | None = None, seq: int | None = None) -> None:
        """A broken invariant (``key`` names which): raised, or with ``survey`` noted (the first of each kind) and
        played on, to see every kind a fight breaks."""
        where = f"event {seq} ({event.kind} {event.actor} at {event.at}: {event.detail})" if event else "no event"
        v = Violation(f"{self.ruleset}, seed {self.seed}: {what}; first offending {where}\n"
                      f"the referee's last inputs: {self.log[-6:]}\nthe fight:\n{self.text}")
        if not self.survey:
            raise v
        self.found.setdefault(key, v)

    @property
    def fight(self) -> Any:
        return self.session.fight

    # -- the invariants ---------------------------------------------------------------------------------------
    def check_event(self, e: Event, seq: int) -> None:  # noqa: C901
        """``e`` against what the events before it made of the fight (the session's state may already be past it:
        a step's events come out together), then noted."""
        seen = self.seen
        name = e.actor or ""
        kind = e.kind
        target = getattr(e, "target", None)
        if name in self.fight.state.fighters and kind in ACTIONS:
            acting = not (kind == "move" and getattr(e, "mode", None) in ("flee", "forced"))
            out = seen.out.get(name)
            if out is not None and out < e.tick and acting:
                self.fail("acts-out", f"{name} acts after it went out of the fight at {out} (G-05)", e, seq)
            for cond, (since, until) in seen.conditions.get(name, {}).items():
                effect = effect_of(cond)
                barred = not effect.acts or (kind in ("melee", "missile") and not effect.attacks)
                if barred and acting and since < e.tick < until:
                    self.fail("acts-incapacitated", f"{name} acts while {cond} (G-09)", e, seq)
            if name in seen.routed and kind in ("melee", "missile", "cast", "cast-start"):
                self.fail("routed-acts", f"{name} is routed but makes a {kind} (G-07)", e, seq)
        if kind in ("melee", "missile", "cast") and isinstance(target, str):
            out = seen.out.get(target)
            if out is not None and out < e.tick:
                self.fail("target-fallen", f"{kind} at {target}, who fell at {out}, before this moment (G-05)", e, seq)
        if kind in ("melee", "missile") and e.detail and ": an automatic hit" in e.detail:
            helpless = e.detail.split(" is ")[0].split("; ")[-1]
            if helpless != target:
                self.fail("automatic-hit-elsewhere", f"{helpless}'s automatic hit (G-09) strikes {target}", e, seq)
        if kind == "declare" and name in seen.said and getattr(e, "decl", None) is not None:
            said = seen.said.pop(name)
            made = {k: v for k, v in e.decl.model_dump(exclude_none=True, exclude_defaults=True).items()  # type: ignore
                    if k in ("melee", "missile", "cast", "move", "none", "misc", "wait")}
            if made != said and not getattr(e, "continuing", False) and name not in seen.routed:
                self.fail("said-ahead-lost", f"{name} was said ahead {said} but declares {made}, untold", e, seq)
        if kind == "impossible" and e.why and e.why.startswith("said ahead"):
            seen.said.pop(name, None)  # told: it could not be taken
        if kind == "melee" and e.detail is None and str(getattr(e, "weapon", "")).startswith("touch of"):
            spell = self.fight.state.fighters[name].spells.get(str(e.weapon)[9:])  # type: ignore[attr-defined]
            if spell is not None and spell.heal is not None:
                self.fail("heal-as-blow", f"the touch of {spell.name}, a healing spell, is rolled as a blow", e, seq)
        if kind == "cast" and isinstance(target, str) and target in self.fight.state.fighters:
            spell = self.fight.state.fighters[name].spells.get(getattr(e, "spell", "") or "")
            if spell is not None and spell.heal is not None and not spell.touch and target not in e.healed:  # type: ignore
                self.fail("heals-nobody", f"{spell.name} cast at {target} heals nobody", e, seq)
        seen.note(e, seq, self.fight.state)
        self.noted = seq + 1
        for g in self.fight.state.fighters.values():
            if g.hp > g.spec.hp + seen.temp.get(g.name, 0):
                self.fail("hp-above-start", f"{g.name} has {g.hp} hp, above the {g.spec.hp} it started with", e, seq)

    def check_screen(self) -> None:
        """What the console, the page and drive show as coming can still happen."""
        fight = self.fight
        coming = self.session.drive.coming
        for s in still_to_come(fight, coming):
            why = self._cannot(s)
            if why is not None:
                self.fail("screen-coming", f"the screen shows {s.kind} of {s.actor.name} at {s.at} as coming, but "
                          f"{why}")
        for side in morale_due(fight):
            if self.seen.checked.get(side, -1) > self.seen.lost.get(side, -1):
                self.fail("screen-morale", f"the screen shows morale due for {side}, checked since its last casualty")

    def _cannot(self, s: Step) -> str | None:
        if s.kind in self.fight.ruleset.own_kinds or s.kind in ("end-condition", "wound", "spell-effect", "owed"):
            return None
        a = s.actor
        if not a.active:
            return f"{a.name} is out of the fight"
        for name, _ in active(a, s.tick):
            if not effect_of(name).acts and s.kind in ("melee", "missile", "cast", "cast-start", "misc", "move"):
                return f"{a.name} is {name} then"
        return None

    def check_offer(self, q: DeclareQuestion) -> None:
        """The suggestion and a sample of the offered choices are accepted by the one validator."""
        fight = self.fight
        f = fight.state.fighters[q.actor]
        if q.suggestion is not None:
            try:
                check_declaration(fight, f, q.suggestion)
            except AnswerError as exc:
                self.fail("suggestion-refused", f"{q.actor}'s suggestion {q.suggestion!r} is refused: {exc}")
        offered = list(self.entries(q))
        for entry in self.rng.sample(offered, k=min(2, len(offered))):
            try:
                check_declaration(fight, f, entry)
            except AnswerError as exc:
                self.fail("offer-refused", f"{q.actor} is offered {entry!r} but it is refused: {exc}")

    # -- what the referee says --------------------------------------------------------------------------------
    def entries(self, q: DeclareQuestion) -> Iterator[dict[str, Any]]:
        """Every declaration ``q`` offers, as plan entries."""
        c = q.choices
        for t in c.get("melee", []):
            yield {"melee": t}
        for t in c.get("missile", []):
            yield {"missile": t}
        for side in c.get("sides", []):  # an attack on a side: one of it at each declaration point
            if side != q.side and c.get("enemies"):
                yield {"melee": side}
        needs = {s["name"] for s in c.get("spells", []) if s.get("needs_target")}
        for s in c.get("cast", []):
            if s in needs or self.touch(q.actor, s):
                for t in [*c.get("enemies", []), *c.get("allies", []), q.actor]:
                    yield {"cast": s, "at": t}
            else:
                yield {"cast": s}
        for m, feet in c.get("moves", {}).items():
            yield {"move": feet, "mode": m}
        yield {"none": True}

    def touch(self, actor: str, spell: str) -> bool:
        s = self.fight.state.fighters[actor].spells.get(spell)
        return bool(s is not None and s.touch)

    def pick(self, q: DeclareQuestion) -> dict[str, Any]:
        options = list(self.entries(q))
        attacks = [o for o in options if "melee" in o or "missile" in o or "cast" in o]
        return self.rng.choice(attacks if attacks and self.rng.random() < 0.8 else options)

    def say(self, line: str, *, must: bool = False) -> bool:
        self.log.append(line)
        reply = self.session.say(line)
        for shown in reply.events:  # a command's own events come with its reply, not from ``next``
            self.check_event(shown.event, shown.seq)
        if reply.ok and line in ("undo", "back"):
            self.seen.said.clear()  # what was said ahead may be what was taken back
        head, colon, _ = line.partition(":")
        if (reply.ok or "the others keep theirs" in reply.text) and colon and "{" not in head:  # a later word for a
            # side or everyone replaces one said ahead (``all: same`` refused for the one asked holds for the others)
            state = self.fight.state
            for who in (n.strip() for n in head.split(",")):
                members = list(state.fighters) if who == "all" else [g.name for g in state.sides.get(who, [])]
                for m in members:
                    self.seen.said.pop(m, None)
        if must and not reply.ok:
            self.fail("input-refused", f"{line!r} refused: {reply.text}")
        return reply.ok

    def answer(self, value: object, *, must: bool = True) -> bool:
        self.log.append(repr(value))
        reply = self.session.answer(value)
        if must and not reply.ok:
            self.fail("input-refused", f"{value!r} refused: {reply.text}")
        return reply.ok

    def declare(self, q: DeclareQuestion) -> None:
        self.check_offer(q)
        r = self.rng.random()
        state = self.fight.state
        others = [g for g in state.fighters.values() if g.active and g.name != q.actor]
        if r < 0.25 and q.suggestion is not None:
            self.say("", must=True)  # Enter: the suggestion
        elif r < 0.35:
            self.say(f"{q.side}: {json.dumps(self.pick(q))}")  # a group's line (a foe's entry may not fit all)
        elif r < 0.40:
            self.say("all: same")
        elif r < 0.50 and others:
            g = self.rng.choice(others)
            foes = self._foes(g)
            entry = {"melee": self.rng.choice(foes)} if foes else {"none": True}
            if self.say(f"{g.name}: {json.dumps(entry)}") and not (self.session.pending is not None
                                                                 and self.session.pending.actor == g.name):
                self.seen.said[g.name] = entry  # said ahead: its next declaration, unless told why not
        elif r < 0.55:
            who = self.rng.choice([*state.sides, *(g.name for g in others)])
            self.say(f"declare {who} {self.rng.choice(['ask', 'auto', 'repeat'])}", must=True)
        elif r < 0.58:
            self.command()
        elif r < 0.60 and len(self.fight.events) > 3:
            self.say(self.rng.choice(["undo", "back"]))
        else:
            self.answer(self.pick(q))

    def _foes(self, g: Fighter) -> list[str]:
        return [h.name for h in self.fight.state.fighters.values() if h.active and h.side != g.side]

    def command(self) -> None:
        state = self.fight.state
        standing = [g for g in state.fighters.values() if g.active]
        if not standing:
            return
        g = self.rng.choice(standing)
        line = self.rng.choice([f"damage {g.name} {self.rng.randint(1, 3)}", f"heal {g.name} {self.rng.randint(1, 8)}",
                                f"morale {g.side}", f"condition {g.name} asleep 1 rounds", f"end {g.name}"])
        self.say(line)

    def die(self, q: DieQuestion) -> None:
        r = self.rng.random()
        if q.attack and r < 0.2:
            self.say(self.rng.choice(["miss", f"hit {self.rng.randint(1, 6)}"]), must=True)
        elif q.attack and r < 0.35:  # the d20 and its damage on one line
            self.say(f"{self.rng.randint(1, 20)} {self.rng.randint(1, 4)}", must=True)
        elif r < 0.42:  # this die and the next ones asked in a row (another side's initiative...)
            self.say(" ".join(str(self.rng.randint(q.count, q.count * q.sides)) for _ in range(3)), must=True)
        elif r < 0.5:
            self.answer(self.rng.randint(q.count, q.count * q.sides))
        else:
            self.answer(ROLL)

    def paused(self, p: Pause) -> None:
        if p.why not in ("start", "provokes") and not self.asked_pause:
            self.fail("unasked-pause", f"a pause ({p.why}) nobody asked for: the caller goes on to the next question")
        r = self.rng.random()
        if r < 0.15:
            self.asked_pause = True
            self.say("round", must=True)
        elif r < 0.25:
            self.asked_pause = True
            self.say("step", must=True)
        else:
            self.asked_pause = False
            self.say("run", must=True)

    # -- the fight --------------------------------------------------------------------------------------------
    def play(self) -> None:
        s = self.session
        for _ in range(self.moves):
            if len(self.fight.events) < self.noted:  # undone or taken back: forget what was seen past the point
                self.reset(len(self.fight.events))
            item = s.next()
            if isinstance(item, Shown):
                if item.seq < self.noted:
                    self.reset(item.seq)
                self.check_event(item.event, item.seq)
                continue
            self.check_screen()
            if isinstance(item, Pause):
                self.paused(item)
            elif isinstance(item, DeclareQuestion):
                self.declare(item)
            elif isinstance(item, DieQuestion):
                self.die(item)
            elif isinstance(item, End):
                self.same_again()
                return

    def reset(self, to: int) -> None:
        """Undone to ``to`` events: what was noted of the events after it goes."""
        self.seen = Seen()
        self.noted = to
        for seq, e in enumerate(self.fight.events[:to]):
            self.seen.note(e, seq, self.fight.state)

    def same_again(self) -> None:
        """The fight rebuilt from its recorded inputs (as a resumed one is) makes the same events."""
        drive = self.session.drive
        events = [plain_event(e, k) for k, e in enumerate(drive.fight.events)]
        again = Drive(drive._make, inputs=drive.inputs, events=len(drive.fight.events), dice=drive._dice0)
        rebuilt = [plain_event(e, k) for k, e in enumerate(again.fight.events)]
        if rebuilt != events:
            k = next(i for i, (a, b) in enumerate(zip(events, rebuilt, strict=False)) if a != b)
            self.fail("not-deterministic", f"the same inputs give other events from event {k}: {rebuilt[k]!r}",
                            drive.fight.events[k], k)
