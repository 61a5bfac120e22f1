"""speed-segments, the list of actions: one declaration -> timed parts (SEG-07, SEG-08, SEG-13 to SEG-19).

A part's segment is the sum of its terms (weapon or casting Spd, movement additions) plus the side's
penalties (surprise, lost initiative); the ruleset places it in its side's turn and its phase. The ruleset's
own kinds of step (``OWN_KINDS``) are resolved here too. This module reads ``speed_segments_base`` (options,
state, placing), never the ruleset's module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from affray.engine.events import Delay, Impossible, Melee, Misc, Move, SpellRuined, Tick, Wait
from affray.engine.fight import Fight
from affray.engine.state import UNARMED, Fighter
from affray.engine.step import AttackMods, Step, given
from affray.engine.words import is_plural, listed, possessive
from affray.model.arms import Arms
from affray.model.derive import NATURAL_SF, attacks_in_round, hd_value
from affray.model.encounter import SIZES
from affray.model.order import Order
from affray.rulesets.speed_segments_base import (
    END,
    PH_NATURAL_SPD,
    PHASES,
    Busy,
    SegmentsState,
    SpeedSegmentsOptions,
    Waiting,
    moment,
    morale,
    penalty,
    place,
    push,
)

__all__ = ["OWN_KINDS", "resolve", "schedule", "trigger"]

#: Step kinds that end a wait on their actor (SEG-07: "immediately after triggering event").
ACTS = frozenset({"move", "melee", "missile", "cast", "misc", "stunt", "retreat", "rally"})


class Part:
    """One timed piece of an action: its segment's terms before penalties, its phase and the step's fields."""

    __slots__ = ("fields", "kind", "phase", "rule", "sub", "terms")

    def __init__(self, terms: list[tuple[int, str]], phase: int, kind: str, rule: str,
                 fields: dict[str, Any] | None = None, sub: int = 0) -> None:
        self.terms = terms
        self.phase = phase
        self.kind = kind
        self.rule = rule
        self.fields: dict[str, Any] = fields if fields is not None else {}
        self.sub = sub

    @property
    def seg(self) -> int:
        return sum(n for n, _ in self.terms)

    def step(self, tick: Tick, f: Fighter, at: str, why: str, decl: Order) -> Step:
        """This part as a step at ``tick``. Its fields (a target, weapon, spell, index, feet, mode, tags, note) are
        passed one by one: a call with ``**fields`` takes the interpreted path in the compiled build."""
        x = self.fields
        return Step(tick, f, self.kind, at, why, decl, x.get("target"), x.get("weapon"), x.get("spell"),
                    x.get("index", 0), x.get("feet", 0), x.get("mode"), x.get("tags", frozenset()), x.get("note", ""))


def _arith(terms: list[tuple[int, str]]) -> str:
    first, *rest = terms
    return f"{first[1]} {first[0]}" + "".join(f" {'+' if n >= 0 else '-'} {abs(n)} ({why})" for n, why in rest)


# -- from declaration to parts ----------------------------------------------------------------------------
def schedule(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], f: Fighter, d: Order, rnd: int, *,  # noqa: C901
             start: int = 0, index: int = 0, now: Tick | None = None, changed: bool = False, held: bool = False,
             begun: Tick | None = None, after: tuple[int, str] | None = None, floor: int = 0) -> None:
    """Push the steps of ``d``: at speed + penalties (from ``start`` when changed), or (``now``) at once, a
    wait's action. ``begun`` is the moment of declaring, when not the start of the round; ``floor``: no part before
    that segment (declared only at the end of an earlier one)."""
    memo = fight.memo
    x = d.extra
    if not held and d.action == "missile" and x.get("pass_through") is True:
        memo.waits[f.name] = Waiting(d.missile or "", frozenset({"move", "retreat"}), d)
        return
    if d.action == "wait":
        memo.waits[f.name] = Waiting(x.get("trigger") or _named(fight, d.wait, f.name) or "nobody", ACTS, None)
        return
    parts = _parts(opt, fight, f, d, rnd)
    pen = [] if changed else penalty(fight, f, rnd)
    lead = [after] if after is not None else []  # the segment counted from, written first
    if changed:
        extra = opt.change_penalty
        lead = [(start, "counted from the change at segment")]
        pen = [(extra, "change_penalty, SEG-04")] if extra else []
    turn = fight.state.ranks.get(f.side, 1)
    if d.action == "cast":
        spell = f.spells[d.cast or ""]
        tick = now or begun or (rnd, 0, 0, 3, index)
        push(fight, Step(tick, f, "cast-start", moment(fight, tick), f"casting {spell.name} begins once declared; "
                         "damage before it finishes loses the spell (SEG-12)", decl=d, spell=spell, target=d.at))
    first = parts[0].seg if parts else 0
    for part in parts:
        if now is not None:
            seg = now[1] + part.seg - first
            why = ("acts immediately after its trigger (SEG-07)" if part.seg == first else
                   f"{part.seg - first} segments after its held action began")
        else:
            own = part.terms
            if lead and own:  # "after ... 1 + 2 (hold casting Spd)": the speed becomes a term in brackets
                own = [(own[0][0], own[0][1].removesuffix(" ="))] + own[1:]
            terms = lead + own + pen
            seg = sum(n for n, _ in terms)
            why = _arith(terms) if fight.explain else ""
            if seg < floor:
                why += f" = {seg}, but declared only at the end of segment {floor - 1} (SEG-03)" if why else ""
                seg = floor
        placed = place(opt, now[0] if now is not None else rnd, seg)
        if placed is None:
            limit = opt.round_segments + opt.overrun
            tick = (rnd, limit, turn, part.phase, 9)
            push(fight, Step(tick, f, "lost", moment(fight, tick), f"{why} = segment {seg}, past the round's "
                             f"{limit} and spill_over is off: it does not happen (SEG-01)", decl=d))
            continue
        r, s = placed
        tick = now[:4] + (now[4] + 1,) if now is not None and part.seg == first else (r, s, turn, part.phase, part.sub)
        if fight.explain:  # the lean mode writes no words
            spill = f", which spills into round {r} at segment {s} (SEG-01)" if r != rnd else ""
            text = why if now is not None else f"{why} = segment {seg}{spill}"
            if part.kind == "move" and "note" not in part.fields:
                to = part.fields.get("target")
                part.fields["note"] = f"{part.fields.get('mode')} move of {part.fields.get('feet')} ft" + (
                    f" towards {to}" if to else "")
            where = (f"in its trigger's turn and phase ({part.rule})" if now is not None and part.seg == first else
                     f"{PHASES[part.phase]} phase of {_turn_text(fight, f.side)} ({part.rule}, SEG-06, SEG-09)")
            why = f"{text}; {where}"
        step = part.step(tick, f, moment(fight, tick), why, d)
        push(fight, step)
        if "exploit" in step.tags:
            memo.exploit[f.name] = step
        if step.kind == "cast":
            memo.finish[f.name] = step.tick
            if r > rnd:  # still casting in round r: no new declaration until then (SEG-01)
                memo.busy[f.name] = Busy(r, s, d.cast, tick)
    nxt = f.plan[f.plan_pos] if f.plan_pos < len(f.plan) else None
    if now is None and not changed and nxt is not None and "change" in nxt.extra:
        s = int(nxt.extra["change"])
        push(fight, Step((rnd, s, 0, 0, index), f, "change", moment(fight, (rnd, s, 0, 0, index)),
                         f"{f.name} changes its declaration at segment {s} (SEG-04)"))


def _turn_text(fight: Fight[SegmentsState], side: str) -> str:
    ranks = fight.state.ranks
    rank = ranks.get(side, 1)
    tied = [s for s, k in ranks.items() if k == rank]
    own = possessive(side)
    if len(ranks) == 1:
        return f"{own} turn"
    if len(tied) > 1:
        return f"the turn {listed(tied)} share, tied"
    pronoun = "they" if is_plural(side) else "it"
    if rank == 1:
        return f"{own} turn, first: {pronoun} won initiative"
    if side in fight.memo.surprise:
        return f"{own} turn, after the unsurprised (SEG-03)"
    return f"{own} turn, after the side(s) ahead of {'them' if pronoun == 'they' else 'it'}"


def _parts(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], f: Fighter, d: Order,
           rnd: int) -> list[Part]:
    action = d.action
    if action == "melee":
        return _melee(opt, fight, f, d, rnd)
    if action == "missile":
        return _missile(opt, f, d, rnd)
    if action == "cast":
        spell = f.spells[d.cast or ""]
        by = d.extra.get("by", "caster")
        what = {"caster": "casting", "item": "used from an item, casting", "scroll": "read from a scroll, casting"}
        return [Part([(spell.ct, f"{spell.name} {what[by]} Spd")], 3, "cast", "SEG-07, SEG-17",
                     {"spell": spell, "target": d.at})]
    if action == "move":
        return _move(opt, f, d)
    if action == "misc":
        x = d.extra
        delay = misc_delay(d)
        if delay:
            speed = d.speed if isinstance(d.speed, int) else 1
            return [Part([(speed, f"{delay} at speed")], 5, "delay-hold", "SEG-13", {"note": str(d.misc)})]
        speed = d.speed if isinstance(d.speed, int) else opt.misc_speed
        rally = x.get("rally") is True or ("rally" not in x and _words(d.misc) & {"rally", "rallies"})
        kind = "rally" if rally else "misc"
        return [Part([(speed, f"{d.misc} at speed")], 5, kind, "SEG-07, SEG-19", {"note": str(d.misc)})]
    return []


def _words(text: object) -> set[str]:
    return set(str(text or "").lower().replace(",", " ").replace(".", " ").replace("!", " ").split())


def misc_delay(d: Order) -> str | None:
    """SEG-13: the delay a misc action makes: its ``delay`` key, else a parley, spectacle or bait its text names."""
    given = d.extra.get("delay")
    if given is not None:
        return str(given)
    found = _words(d.misc) & {"parley", "spectacle", "bait"}
    return min(found) if found else None


def _named(fight: Fight[SegmentsState], text: object, own: str) -> str | None:
    """A wait's trigger read from its text: the longest combatant name it contains (SEG-07)."""
    low = str(text).lower() if isinstance(text, str) else ""
    names = sorted((n for n in fight.state.fighters if n != own and n.lower() in low), key=len, reverse=True)
    return names[0] if names else None


def weapon_spd(opt: SpeedSegmentsOptions, f: Fighter, w: Arms) -> tuple[int, str]:
    """SEG-07, SEG-08: a weapon's Spd and the words for where it comes from: its listed ``sf``; a natural attack
    without one (a claw, a bite: the catalogue's monsters list none) by its creature's size, as option
    ``natural_spd`` says (**Decision**: the seed's "listed Attack Spds are used unaltered" needs a listed Spd)."""
    if w.sf is not None or not w.natural:
        return w.sf or 0, ""
    table, source = (PH_NATURAL_SPD, "2e PH Table 57") if opt.natural_spd == "ph" else (NATURAL_SF, "C2-02")
    return table[f.size], f" (a {f.size} creature's natural attack, {source})"


def _speeds(opt: SpeedSegmentsOptions, f: Fighter, weapon: Arms, n: int, *,
            monster: bool) -> list[tuple[int, str, Arms]]:
    """SEG-08: the segment terms of each of ``n`` attacks this round, with the weapon of each."""
    sf, how = weapon_spd(opt, f, weapon)
    spec = 1 if opt.specialist_speed and f.spec.specialist else 0
    sp = " - 1 specialist" if spec else ""
    if n == 1:
        return [(max(1, sf - spec), f"{weapon.name} Spd {sf}{how}{sp} =" if spec else f"{weapon.name} Spd{how}",
                 weapon)]
    if monster:  # listed speeds unaltered: each attack its own weapon's Spd, a weapon used again at its multiple
        forms = f.routine if weapon in f.routine else (weapon,)  # its routine (claw, claw, bite), else the weapon
        uses: dict[str, int] = {}
        out = []
        for k in range(n):
            w = forms[k % len(forms)]
            uses[w.name] = uses.get(w.name, 0) + 1
            j = uses[w.name]
            listed, how = weapon_spd(opt, f, w)
            out.append((j * listed, f"attack {k + 1} of {n}, {w.name} at its listed Spd {listed}{how}"
                        + (f" x {j}" if j > 1 else "") + " =", w))
        return out
    step = max(1, sf - spec - 1)
    return [(k * step, f"attack {k} of {n}: {k} x (Spd {sf}{sp} - 1) =", weapon) for k in range(1, n + 1)]


def _melee(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], f: Fighter, d: Order,  # noqa: C901
           rnd: int) -> list[Part]:
    x = d.extra
    weapon = UNARMED if x.get("unarmed") is True else f.weapon(d.weapon)
    target = d.melee
    base = {"target": target, "weapon": weapon}
    if x.get("stunt") is True:
        return [Part([(4, "stunt Spd")], 4, "stunt", "SEG-07, SEG-18", base),
                Part([(4, "stunt Spd"), (4, "exploit 4 segments later")], 4, "melee", "SEG-07, SEG-18",
                     {**base, "index": 1, "tags": frozenset({"exploit"})})]
    mv = f.mv * 10
    dist = f.remaining
    add: list[tuple[int, str]] = []
    tags: set[str] = set()
    moves: list[Part] = []
    foe = fight.state.fighters[target or ""]
    rule = "SEG-07"
    if d.charge:
        fdecl = foe.declared
        counter = fdecl is not None and fdecl.charge and fdecl.melee == f.name
        reach = mv + (foe.mv * 10 if counter else 0)
        if dist <= reach:
            add = [(4, "charge")]
            tags.add("charge")
            rule = "SEG-07, SEG-14"
            if counter and fdecl is not None:
                mine = weapon_spd(opt, f, weapon)[0] + 4 + sum(n for n, _ in penalty(fight, f, rnd))
                theirs = (weapon_spd(opt, foe, foe.weapon(fdecl.weapon))[0] + 4
                          + sum(n for n, _ in penalty(fight, foe, rnd)))
                if theirs < mine:
                    add.append((theirs - mine, f"meets {foe.name}'s earlier charge at segment {theirs}"))
                rule += ", counter-charge: both strike in the earlier segment"
            moves.append(Part([], 1, "move", rule, {"feet": dist, "mode": "charge", "target": target}))
            if _giant(opt, f) and not foe.pc and _hd(foe) < 4:
                moves.append(Part([], 1, "charge-morale", "SEG-15", {"target": target}, sub=1))
        else:
            return _full_move(opt, f, d, dist, f"charging distance is {reach} ft (MV {f.mv}"
                              + (f" + {foe.name}'s counter-charge" if counter else "") + "): ")
    elif "split" in x and x["split"] is not False:
        add = [(4, "split-move attack")]
        tags.add("split")
        moves.append(Part([], 1, "move", "SEG-07, SEG-14", {"feet": min(dist, mv // 3), "mode": "split",
                                                             "target": target}))
        after = x["split"] if isinstance(x["split"], int) and not isinstance(x["split"], bool) else 0
        if after:
            moves.append(Part([(1, "moving on after the attack")], 1, "move", "SEG-14",
                              {"feet": min(after, mv // 3), "mode": "split", "tags": frozenset({"disengage"})}))
    elif dist > 0:
        if dist > mv // 2:
            return _full_move(opt, f, d, dist, "")
        add = [(5, "half move")]
        tags.add("half")
        moves.append(Part([(opt.move_segment, "half move at")], 1, "move", "SEG-07",
                          {"feet": dist, "mode": "half", "target": target}))
    n = 1 if "charge" in tags else attacks_in_round(f.attacks, rnd)  # a charge ends in one strike
    parts: list[Part] = []
    for k, (spd, label, w) in enumerate(_speeds(opt, f, weapon, n, monster=f.klass == "monster")):
        terms = [(spd, label)] + add
        parts.append(Part(terms, 4, "melee", rule + (", SEG-08" if n > 1 else ""),
                          {**base, "weapon": w, "index": k, "tags": frozenset(tags)}))
    if not parts:  # under one attack a round (1/2: every other round) and none due this one: only the moves
        return [m for m in moves if m.terms]
    first = parts[0]
    for m in moves:  # a move without terms comes in the strike's own segment; one with terms after it
        m.terms = first.terms + m.terms if m.terms and m.fields.get("mode") == "split" else (m.terms or first.terms)
    return moves + parts


def _full_move(opt: SpeedSegmentsOptions, f: Fighter, d: Order, dist: int, lead: str) -> list[Part]:
    """SEG-07: a full move is two half moves and allows nothing else; the attack waits for another round."""
    mv = f.mv * 10
    seg = opt.move_segment
    half1 = min(dist, mv // 2)
    half2 = min(dist - half1, mv // 2)
    rule = "SEG-07: " + lead + f"{dist} ft to close is more than a half move ({mv // 2} ft): a full move, no attack"
    out = [Part([(seg, "first half move at")], 1, "move", rule, {"feet": half1, "mode": "full", "target": d.target})]
    if half2:
        out.append(Part([(2 * seg, "second half move at")], 1, "move", rule,
                        {"feet": half2, "mode": "full", "target": d.target}))
    return out


def _missile(opt: SpeedSegmentsOptions, f: Fighter, d: Order, rnd: int) -> list[Part]:
    x = d.extra
    weapon = f.weapon(d.weapon, missile=True)
    n = attacks_in_round(f.attacks * weapon.rate, rnd)
    add: list[tuple[int, str]] = []
    tags: set[str] = set()
    moves: list[Part] = []
    rule = "SEG-07, SEG-16" + (", artillery" if x.get("artillery") is True else "")
    if "split" in x and x["split"] is not False:
        add = [(4, "split-move fire")]
        tags.add("split")
        moves.append(Part([], 1, "move", "SEG-16", {"feet": f.mv * 10 // 3, "mode": "split"}))
    parts = []
    for k, (spd, label, w) in enumerate(_speeds(opt, f, weapon, n, monster=False)):
        nth = f"{'first' if k == 0 else 'second' if k == 1 else f'fire {k + 1}'} fire: " if n > 1 else ""
        parts.append(Part([(spd, nth + label)] + add, 2, "missile", rule + (", SEG-08" if n > 1
                          else ""), {"target": d.missile, "weapon": w, "index": k, "tags": frozenset(tags)}))
    if not parts:  # under one shot a round and none due this one
        return []
    for m in moves:
        m.terms = parts[0].terms
    return moves + parts


def _move(opt: SpeedSegmentsOptions, f: Fighter, d: Order) -> list[Part]:
    """SEG-07 defaults: a pure move at segment move_segment, a full move at it and twice it (SEG-14)."""
    mode = d.mode or "full"
    feet = d.move or 0
    mv = f.mv * 10
    seg = opt.move_segment
    if mode == "full":
        first = min(feet, mv // 2)
        second = min(feet - first, mv // 2)
        tags = frozenset({"disengage"}) if f.engaged else frozenset()
        out = [Part([(seg, "first half of a full move at")], 1, "move", "SEG-07", {"feet": first, "mode": "full",
                                                                                   "tags": tags})]
        if second:
            out.append(Part([(2 * seg, "second half at")], 1, "move", "SEG-07", {"feet": second, "mode": "full"}))
        return out
    if mode in ("shift", "step"):
        return [Part([(seg, "shift at")], 1, "move", "SEG-07, SEG-14", {"feet": min(feet, 10), "mode": mode})]
    if mode == "half":
        return [Part([(seg, "half move at")], 1, "move", "SEG-07", {"feet": min(feet, mv // 2), "mode": mode})]
    if mode == "withdraw":
        return [Part([(seg, "withdrawal at")], 1, "move", "SEG-07, SEG-14",
                     {"feet": min(feet, mv // 2), "mode": mode, "tags": frozenset({"disengage"})})]
    if mode == "retreat":
        return [Part([(seg, "retreat at")], 1, "retreat", "SEG-07, SEG-14", {"feet": min(feet, mv // 2),
                                                                             "mode": mode})]
    flee = {"disengage", "leaves"} | ({"routed"} if f.routed else set())
    return [Part([(seg, "break and run at")], 1, "move", "SEG-07, SEG-14",
                 {"feet": min(feet, mv), "mode": "flee", "tags": frozenset(flee)})]


def _giant(opt: SpeedSegmentsOptions, f: Fighter) -> bool:
    return SIZES.index(f.size) >= SIZES.index(opt.giant_size)


def _hd(f: Fighter) -> float:
    """Hit Dice for SEG-15: a monster's HD, a character's level (1 with neither)."""
    if f.spec.hd is not None:
        return hd_value(f.spec.hd)
    return float(f.level) if f.level is not None else 1.0


# -- the ruleset's own kinds of step --------------------------------------------------------------------
def resolve(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """Resolve a step of one of ``OWN_KINDS``, once the engine's checks let it happen."""
    _HANDLERS[step.kind](opt, fight, step)


def _late(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-03, SEG-04: a surprised party declares once the count has begun (or, option ``surprised_declare`` acted,
    once the unsurprised have acted: then nothing of its comes before the next segment)."""
    f = step.actor
    d = fight.declare(f, step.tick, step.at, known=fight.memo.heard() if fight.asker is not None else ())
    if d is not None:
        fight.memo.declared.append((f.name, d))
        floor = step.tick[1] + 1 if step.tick[2] == END else 0
        schedule(opt, fight, f, d, step.tick[0], index=step.tick[4], begun=step.tick, floor=floor)


def _change(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-04: the new declaration replaces what is left of the old; its speed counts from the change."""
    f = step.actor
    s = step.tick[1]
    for old in fight.memo.steps.get(f.name, []):
        if old.tick > step.tick and not old.cancelled and old.kind not in ("late", "change"):
            old.cancelled = True
            fight.emit(Impossible, step.tick, step.at, f.name, target=old.target,
                       why=f"abandoned: {f.name} changes its declaration at segment {s} (SEG-04)",
                       detail=f"{old.kind} of {old.at} cancelled")
    fight.memo.waits.pop(f.name, None)
    if f.casting is not None:
        fight.emit(SpellRuined, step.tick, step.at, f.name, spell=f.casting,
                   why=f"{f.name} abandons the casting: it changes its declaration at segment {s} (SEG-04)",
                   detail="the spell is not cast this time")
    d = fight.declare(f, step.tick, step.at)
    if d is not None:
        schedule(opt, fight, f, d, step.tick[0], start=s, index=step.tick[4],
                 changed=True, begun=step.tick)


def _held(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-07: a wait's action comes immediately after its trigger (a pass-through shot, SEG-16)."""
    f = step.actor
    fight.emit(Wait, step.tick, step.at, f.name, target=step.target, why=step.why, detail=step.note)
    d = step.decl if step.decl is not None else fight.declare(f, step.tick, step.at)
    if d is not None:
        schedule(opt, fight, f, d, step.tick[0], now=step.tick, held=True)


def _press(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step, target: Fighter, bonus: int,
           reason: str) -> bool:
    """An attack roll that does no damage (a stunt; a retreat pressing the foe): G-04 against the target."""
    a = step.actor
    mods = AttackMods()
    weapon = step.weapon
    if weapon is not None and weapon.magic:  # as an attack's (G-04), then the chain's rules, this ruleset's last
        mods.add("hit", weapon.magic, "magic weapon")
        mods.add("damage", weapon.magic, "magic weapon")
    fight.rules.mods(fight, step, target, mods)
    if bonus:
        mods.add("hit", bonus, reason)
    decl = step.decl
    outcome = decl.outcomes[step.index] if decl is not None and step.index < len(decl.outcomes) else None
    if outcome is not None:
        hit = outcome.hit
        detail = f"the referee's outcome: {'success' if hit else 'failure'}"
    else:
        dice = decl.dice_given if decl is not None else ()
        entered = dice[step.index].attack if step.index < len(dice) else None
        d = fight.roller.die(20, "attack", a.name, entered)
        need = a.thac0 - (target.ac + mods.ac)
        total = d + mods.hit
        hit = d == 20 if opt.natural_20 and d in (1, 20) else total >= need
        detail = (f"d20 {d}{mods.text('hit')} = {total} vs THAC0 {a.thac0} - AC {target.ac}{mods.text('ac')} = "
                  f"{need}: {'success' if hit else 'failure'}")
    fight.emit(Melee, step.tick, step.at, a.name, target=target.name, hit=hit, damage=0, why=step.why,
               detail=detail, maneuver=step.kind)
    return hit


def _stunt(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-18: the stunt sets up the exploit 4 segments later if it succeeds."""
    target = fight.state.fighters[step.target or ""]
    if not target.active:
        fight.emit(Impossible, step.tick, step.at, step.actor.name, target=target.name,
                   why=f"the target {target.name} is down (G-05)", detail="stunt cancelled")
        return
    if _press(opt, fight, step, target, 0, ""):
        exploit = fight.memo.exploit.get(step.actor.name)
        if exploit is not None:
            exploit.tags = exploit.tags | frozenset({"set-up"})


def _retreat(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-14: press the engaged foe at +2; success: no damage, the foe driven back, the character backs away."""
    f = step.actor
    foes = sorted((fight.state.fighters[n] for n in f.engaged if fight.state.fighters[n].active),
                  key=lambda g: g.index)
    if not foes:
        fight.emit(Move, step.tick, step.at, f.name, why=step.why, detail=f"backs away {step.feet} ft "
                   "(nobody engaged)", feet=step.feet, mode="retreat", disengage=True)
        return
    foe = foes[0]
    if _press(opt, fight, step, foe, 2, "retreat presses the foe, SEG-14"):
        fight.emit(Move, step.tick, step.at, f.name, target=foe.name, why=step.why,
                   detail=f"drives {foe.name} back and backs away {step.feet} ft unharmed", feet=step.feet,
                   mode="retreat", disengage=True)
    else:
        fight.emit(Move, step.tick, step.at, f.name, target=foe.name, why=step.why,
                   detail=f"fails to drive {foe.name} back: still engaged", feet=0, mode="retreat", stopped=True)


def _delay(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-13: parley and spectacle hold everyone's count, bait the foes': later actions come N segments later."""
    f = step.actor
    decl = step.decl
    assert decl is not None
    kind = misc_delay(decl) or "parley"
    n = int(decl.extra.get("segments", opt.delay_segments))
    who = "its foes" if kind == "bait" else "everyone"
    fight.emit(Delay, step.tick, step.at, f.name, why=f"{step.why}; {kind} holds the count of {who} for {n} "
               "segments (SEG-13)", detail=step.note or None, delay=kind, segments=n)
    memo = fight.memo
    for name, steps in list(memo.steps.items()):
        g = fight.state.fighters[name]
        if kind == "bait" and g.side == f.side:
            continue
        for old in list(steps):
            if old.cancelled or old.tick <= step.tick or old.tick[1] == 0:
                continue
            placed = place(opt, old.tick[0], old.tick[1] + n)
            if placed is None:
                continue
            tick = (*placed, *old.tick[2:])
            new = old.moved(tick, moment(fight, tick), f"{old.why}; held {n} segments by {f.name}'s {kind} (SEG-13)")
            old.cancelled = True
            push(fight, new)
            if memo.exploit.get(name) is old:
                memo.exploit[name] = new
            if new.kind == "cast":
                memo.finish[name] = new.tick


def _rally(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-19: shaken or broken allies close by check morale again; passing, they fight on."""
    f = step.actor
    broken = [g for g in fight.state.sides[f.side] if g.active and g.routed and g is not f]
    fight.emit(Misc, step.tick, step.at, f.name, why=step.why, detail=f"rallies {', '.join(g.name for g in broken)}"
               if broken else "rallies: nobody is shaken or broken")
    if broken:
        morale(fight, opt, f.side, broken, given(step, "morale"), step.tick, step.at, ("rally",),
               f"{f.name} rallies the broken: they check morale again (SEG-19, G-07)", rally=True)


def _charge_morale(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-15: charged by a giant creature, a target of fewer than 4 HD checks morale at once."""
    target = fight.state.fighters[step.target or ""]
    if not target.active or target.routed:
        return
    a = step.actor
    why = (f"{a.name} ({a.size}) charges {target.name} ({_hd(target):g} HD, fewer than 4): a morale check at "
           "once (SEG-15, G-07)")
    entered = fight.encounter.rolls.morale.get(step.tick[0], {}).get(target.side)
    if morale(fight, opt, target.side, [target], entered, step.tick, step.at, ("giant charge",), why):
        return
    for old in fight.memo.steps.get(target.name, []):
        if old.tick > step.tick:
            old.cancelled = True
    tick = step.tick[:4] + (step.tick[4] + 1,)
    push(fight, Step(tick, target, "move", moment(fight, tick), f"failed its morale against {a.name}'s charge: "
                     "the effect applies at once, it breaks and runs (SEG-15, SEG-14)", feet=target.mv * 10,
                     mode="flee", tags=frozenset({"disengage", "leaves"}), note=f"flees {target.mv * 10} ft"))


def _lost(opt: SpeedSegmentsOptions, fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-01: an action past the round's last segment with spill_over off."""
    fight.emit(Impossible, step.tick, step.at, step.actor.name, why=step.why, detail="too late for this round")


_HANDLERS: dict[str, Callable[[SpeedSegmentsOptions, Fight[SegmentsState], Step], None]] = {
    "late": _late, "change": _change, "held": _held, "stunt": _stunt, "retreat": _retreat, "delay-hold": _delay,
    "rally": _rally, "charge-morale": _charge_morale, "lost": _lost}
#: The kinds of step this ruleset resolves itself (``Ruleset.resolve_own``).
OWN_KINDS = frozenset(_HANDLERS)


def trigger(fight: Fight[SegmentsState], step: Step) -> None:
    """SEG-07: a wait ends right after its trigger acts; its action follows at once."""
    waits = fight.memo.waits
    if not waits or step.kind not in ACTS:
        return
    actor = step.actor.name
    for name, (trig, kinds, decl) in list(waits.items()):
        if trig != actor or step.kind not in kinds or name == actor:
            continue
        waiter = fight.state.fighters[name]
        if not waiter.active:
            continue
        del waits[name]
        tick = step.tick[:4] + (step.tick[4] + 1,)
        what = "pass-through fire at" if decl is not None else "its wait ends on"
        push(fight, Step(tick, waiter, "held", moment(fight, tick), f"{what} {actor}'s {step.kind}: it acts "
                         "immediately after its trigger (SEG-07, SEG-13, SEG-16)", decl=decl, target=actor,
                         note=f"{actor} {step.kind}"))
