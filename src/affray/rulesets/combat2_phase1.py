"""combat2-phase1: seed 000 (Combat II), Phase System I: a round of three phases and an endphase.

Read it beside ``../shared/seeds/000_*.txt`` sections 1-2 (Table 1) and RULES.md C2-01..C2-29,
P1-01..P1-19. Each round:

A. a d10 per side, low wins; each combatant's DEX reaction adjustment puts it on the winner or the
   loser track (P1-01, P1-02);
C. each of phases 1-3 opens with intentions, losers first (P1-08); a combatant does ONE of: move 1/3
   MV, one attack, begin or continue a spell, a brief miscellaneous action (P1-07);
D-E. half-segments 1-6 of the phase: attacks by speed-factor band, spells on the caster's track
   (P1-04, P1-05); equal half-segments are simultaneous (C2-06, P1-09);
F. movement and miscellaneous actions after the attacks (C2-16, P1-10);
H. the endphase, half-segments 19-20: "1 round" spells only (P1-11).

A tick is ``(round, phase, slot, sub)``: phase 0 holds the round's start (surprise, morale,
initiative); in phases 1-3 slot 0 is the stating of intentions, slots 1-6 the half-segments
6(phase-1)+slot, slot 7 the movement portion (sub 0 a charge's contact and readied strikes, sub 1
moves and miscellaneous actions, sub 2 what follows a charge); phase 4 is the endphase (slot 1 =
half-segment 19, slot 2 = 20, slot 3 the round's end). The engine's declaration point is a phase.

The file carries these facts beyond CONTRACT.md (declaration keys, see ``declaration_keys``; a
weapon's ``style`` SF bonus; a spell's ``touch`` and ``psionic``), and checks take their dice from
a declaration's ``dice``: ``con``, ``str``, ``dex``, ``prone``, ``surprise``.

Modelled with simplifications (no positions on a map; the referee states who closes on whom):
- C2-12 a caster's 10-ft shift while casting and the release before/at/after the losers' moves
  are not modelled beyond the order of the movement portion; C2-23 spreads moves over the
  half-segments (Table 3) but a move never meets anyone on the way.
- C2-17 parallel riders; C2-18 an interposing ally counts when it declared melee on that foe.
- C2-19 the PH strength chances are a STR check (d20 <= STR) for each rise above base MV; the
  round's CON check is d20 <= CON - (top factor - 1), failure drops to base MV; a combatant that
  does anything but move has stopped (no momentum check).
- C2-20 ramming (DEX and STR checks to stay up) and the charging backstab are not modelled.
- C2-21 a readied defence lasts the phase it is declared; declare it again to keep it.
- C2-22 an ambush mid-fight is a declaration ``ambush: true``: its target passes a surprise roll
  (d10 > 3, +1 while casting) or loses its next phase.
- C2-15 psionic tangents are not modelled (a power is a casting of CT 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from affray.engine.ruleset import AttackMods, Option, Ruleset, Step
from affray.errors import Problem
from affray.model.derive import attacks_in_round, attacks_per_round, dex_defense_adjustment, dex_reaction_adjustment
from affray.model.encounter import Declaration, Spell, Weapon
from affray.rulesets.combat2 import (
    SITUATIONS,
    adjusted_sf,
    band,
    band_text,
    ct_half_segment,
    half_segment_moves,
)

if TYPE_CHECKING:
    from affray.engine.engine import Fight
    from affray.engine.events import Tick
    from affray.engine.state import Fighter
    from affray.io.load import Loaded

__all__ = ["Combat2Phase1"]

#: P1-05: the largest CT a spell begun in phase 1, 2 or 3 can have.
MAX_CT = {1: 9, 2: 6, 3: 3}
ROUND_CT = 10


@dataclass
class Book:
    """What Combat II remembers of one combatant beyond the shared state."""

    track: str = "loser"
    attacks: int = 0  # attack actions this round
    weapon_attacks: dict[str, int] = field(default_factory=dict)  # per weapon this round (C2-26)
    forms: set[str] = field(default_factory=set)  # forms used this round (split_forms, C2-07)
    attacked_phase: int = 0  # the period of its last attack
    attack_round: int = 0  # the round of its last physical attack (C2-09)
    cast_round: int = 0  # the round of its last casting, begun, held over or ruined (C2-09, C2-13)
    casting_until: int = 0  # the period through which its spell occupies it
    casting_decl: Declaration | None = None
    casting_note: str = ""
    carry: Declaration | None = None  # a declaration held over to the next phase (a forced delay)
    carry_note: str = ""
    con_checked: bool = False  # the carried spell already failed its CON check (no second one)
    pending: Declaration | None = None  # closed last phase: attacks in this one
    pace: int = 0  # current movement as a multiple of base MV (0: standing)
    top_pace: int = 0  # this round's highest
    prone_until: int = 0  # the last period it lies prone
    lost_phase: int = 0  # a period lost to surprise
    hp_mark: int = 0  # hp at the previous declaration point
    hit_last_phase: bool = False
    used_m: bool = False  # cast a spell with M since it last readied components (C2-11)
    charged: tuple[str, int] | None = None  # a touch spell cast (name, copies before) not yet delivered (C2-10)
    held: tuple[Spell, Declaration, int] | None = None  # a held spell spilling into the next round: units left


@dataclass
class Memo:
    books: dict[str, Book] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)
    sets: dict[str, tuple[Fighter, Declaration]] = field(default_factory=dict)  # target -> readied setter


class Combat2Phase1(Ruleset):
    """Seed 000 Phase System I: d10 group initiative, winner/loser tracks, phases of six half-segments."""

    id = "combat2-phase1"
    title = "Combat II, Phase System I: d10 group initiative, phases and half-segments"
    seed = "000"
    rules = "C2, P1"
    options = (
        Option("morale_dice", "2d10", "G-07", "dice rolled against the morale score; above it fails",
               ("2d10", "2d6")),
        Option("default_morale", 11, "G-07", "morale score of a side when neither it nor its members give one"),
        Option("tie_track", "loser", "P1-01", "sides tied for the lowest roll: everyone on the loser track, or "
               "a modified roll equal to the lowest opposing one counts as winning", ("loser", "winner")),
        Option("agility", False, "P1-02", "use AGI instead of DEX for the initiative adjustment when given "
               "(C2X-01)"),
        Option("split_forms", False, "C2-07", "separate attack forms: one form per phase (two with more than "
               "three forms)"),
        Option("hold_spells", True, "C2-14", "casters may hold a cast spell up to 6 CT units (`hold: N`)"),
        Option("ready_components", False, "C2-11", "after a spell with M, the next spell with M needs a phase "
               "to ready components"),
        Option("incremental_movement", False, "C2-23", "spread movement over the half-segments (Table 3) "
               "instead of at the end of the phase"),
        Option("charge_bonus", 1, "C2-20", "to-hit bonus of a charge (the 2nd-edition +1)"),
        Option("speed_checks", True, "C2-19", "STR checks to accelerate and the round's CON check at speed"),
    )
    declaration_keys: ClassVar[dict[str, str]] = {
        "reposition": "a step or two (10 ft) first: +2 SF to an attack, +1 CT to a spell (C2-03)",
        "retarget": "melee/missile: the foe to strike at +3 SF if the target falls first (C2-04)",
        "routine": "melee: the weapons of a multi-part routine, struck together at the slowest SF (C2-07)",
        "targets": "melee with routine: one target per part (C2-07)",
        "set": "melee/missile: ready the weapon against the target's charge or approach instead of "
               "attacking (C2-21)",
        "pace": "move or charge: the multiple of base MV to run at, 1-5 (C2-19)",
        "hold": "cast: hold the spell N more CT units, 1-6 (C2-14)",
        "draw": "melee/missile: drop a weapon and draw this one as part of the attack, +3 SF (C2-24)",
        "ambush": "melee/missile: an ambush (C2-22): SF 1 in the first phase, or a surprise roll mid-fight",
        "touch": "melee: deliver the touch spell named (C2-10)",
        "situation": "a list of situational SF modifiers (C2-29): " + ", ".join(SITUATIONS),
    }
    initiative_die = 10
    surprise_die = 10
    attack_scheme = "2e"

    # -- the clock -------------------------------------------------------------------------------------
    def new_memo(self) -> Memo:
        return Memo()

    def round_of(self, period: int) -> int:
        return (period + 2) // 3

    def period_end(self, period: int) -> Tick:
        rnd, phase = self.round_of(period), (period - 1) % 3 + 1
        return (rnd, phase + 1) if phase < 3 else (rnd + 1,)

    @staticmethod
    def book(fight: Fight, f: Fighter) -> Book:
        books: dict[str, Book] = fight.memo.books
        b = books.get(f.name)
        if b is None:
            b = books[f.name] = Book(hp_mark=f.hp)
        return b

    def begin(self, fight: Fight, period: int) -> None:
        rnd, phase = self.round_of(period), (period - 1) % 3 + 1
        state = fight.state
        if phase == 1:
            if rnd == 1:
                self._surprise(fight)
            else:
                self.casualty_morale(fight, (rnd, 0, 0), f"round {rnd}, start", "start of the round", "G-07")
            self._initiative(fight, rnd)
        memo: Memo = fight.memo
        memo.sets = {}
        books = {f.name: self.book(fight, f) for f in state.fighters.values()}
        for f in state.fighters.values():
            b = books[f.name]
            b.hit_last_phase = f.hp < b.hp_mark
            b.hp_mark = f.hp
        # P1-08: losers state their intentions first, then winners (who may take them into account)
        order = [f for f in state.fighters.values() if f.active and books[f.name].track == "loser"]
        order += [f for f in state.fighters.values() if f.active and books[f.name].track == "winner"]
        at = f"round {rnd}, phase {phase}, stating intentions"
        tick = (rnd, phase, 0, 0)
        declared: list[tuple[Fighter, Declaration]] = []
        for f in order:
            b = books[f.name]
            if b.lost_phase == period:
                fight.emit("delay", tick, at, f.name, why="surprised: loses one full phase (C2-27)",
                           detail="no action this phase")
                continue
            if b.prone_until >= period:
                fight.emit("delay", tick, at, f.name, why=f"prone until phase {self._phase_name(b.prone_until)}: no "
                           "attacks, no DEX bonus, +4 to be hit (C2-19)", detail="lies prone")
                continue
            decl = self._declare(fight, f, b, tick, at, period)
            if decl is not None:
                declared.append((f, decl))
        sets = [(f, d) for f, d in declared if d.extra.get("set") is True and d.action in ("melee", "missile")]
        for f, d in sets:
            memo.sets[d.melee or d.missile or ""] = (f, d)
        for f, d in declared:
            if (f, d) not in sets:
                self._schedule(fight, f, d, rnd, phase, period)
        for f, d in sets:
            self._readied_wait(fight, f, d, rnd, phase)
        if phase == 1 and rnd > 1:
            self._held_over(fight, rnd)

    def end(self, fight: Fight, period: int) -> None:
        rnd, phase = self.round_of(period), (period - 1) % 3 + 1
        if phase != 3:
            return
        for f in fight.state.fighters.values():
            b = self.book(fight, f)
            if self.opt["speed_checks"] and f.active and b.top_pace > 1:
                need = f.spec.con - (b.top_pace - 1)
                last = f.declared.dice_given if f.declared is not None else []
                d = fight.roller.die(20, "CON check", f.name, last[0].other("con") if last else None)
                ok = d <= need
                fight.emit("check", (rnd, 4, 3, 0), f"round {rnd}, end", f.name, passed=ok,
                           why=f"a CON check each round at top speed x{b.top_pace} (C2-19)",
                           detail=f"d20 {d} vs CON {f.spec.con} - {b.top_pace - 1} = {need}: "
                           + ("keeps its pace" if ok else "winded: back to base MV"))
                if not ok:
                    b.pace = min(b.pace, 1)
            b.top_pace = b.pace

    # -- round start ------------------------------------------------------------------------------------
    def _surprise(self, fight: Fight) -> None:
        """C2-27: a d10 per side, 1-3 surprised; a surprised combatant loses one full phase."""
        enc = fight.encounter
        sides = list(enc.sides)
        tick, at = (1, 0, 0, 0), "round 1, surprise"
        if enc.surprise == "none":
            surprised: set[str] = set()
            detail = "no surprise: every side is aware (the file says none)"
        elif isinstance(enc.surprise, dict):
            surprised = {s for s in sides if enc.surprise.get(s)}
            detail = f"the referee rules it: {', '.join(sorted(surprised)) or 'nobody'} surprised"
        else:
            rolls = {s: fight.roller.die(10, "surprise", s, enc.rolls.surprise.get(s)) for s in sides}
            surprised = {s for s in sides if rolls[s] <= 3}
            detail = ", ".join(f"{s} d10={rolls[s]}" for s in sides)
            detail += f": {', '.join(s for s in sides if s in surprised) or 'nobody'} surprised"
        surprisers = set(sides) - surprised if surprised else set()
        fight.emit("surprise", tick, at, why="each side d10, 1-3 surprised: a surprised individual loses one "
                   "full phase (C2-27)", detail=detail,
                   data={"surprised": tuple(s for s in sides if s in surprised),
                         "surprisers": tuple(s for s in sides if s in surprisers)})
        for s in surprised:
            for f in fight.state.sides[s]:
                self.book(fight, f).lost_phase = 1

    def _initiative(self, fight: Fight, rnd: int) -> None:
        """P1-01, P1-02: a d10 per side, low wins; each one's DEX moves it between the tracks."""
        state = fight.state
        sides = [s for s in state.sides if state.active_left[s] > 0]
        given = fight.encounter.rolls.initiative.get(rnd, {})
        rolls = {s: fight.roller.die(10, "initiative", s, given.get(s)) for s in sides}
        fight.memo.results = rolls
        tracks: dict[str, str] = {}
        notes: list[str] = []
        for f in state.fighters.values():
            if not f.active:
                continue
            others = [rolls[s] for s in sides if s != f.side]
            lowest = min(others) if others else rolls[f.side] + 1
            score, ability = f.spec.dex, "DEX"
            if self.opt["agility"] and f.spec.agi is not None:
                score, ability = f.spec.agi, "AGI"
            adj = dex_reaction_adjustment(score)
            mine = rolls[f.side] - adj
            win = mine < lowest or (self.opt["tie_track"] == "winner" and mine == lowest)
            tracks[f.name] = "winner" if win else "loser"
            self.book(fight, f).track = tracks[f.name]
            side_won = all(rolls[f.side] < o for o in others)
            if adj or win != side_won:
                notes.append(f"{f.name} {rolls[f.side]}{-adj:+d} ({ability} {score}) = {mine}: {tracks[f.name]}")
        low = min(rolls.values())
        winners = [s for s in sides if rolls[s] == low]
        text = ", ".join(f"{s} d10={rolls[s]}" for s in sides) + ": "
        text += (f"{winners[0]} wins" if len(winners) == 1 else f"{' and '.join(winners)} tie for lowest: "
                 f"{'all on the loser track' if self.opt['tie_track'] == 'loser' else 'all on the winner track'}")
        if notes:
            text += "; " + "; ".join(notes)
        ranks = {s: 1 if s in winners and len(winners) == 1 else 2 for s in sides}
        fight.emit("initiative", (rnd, 0, 1, 0), f"round {rnd}, initiative", detail=text,
                   why="each side d10, lowest wins; each combatant's roll less its reaction adjustment must beat the "
                   "lowest opposing roll to be on the winner track (P1-01, P1-02)",
                   data={"ranks": ranks, "results": rolls, "tracks": tracks})
        for f in state.fighters.values():
            b = self.book(fight, f)
            b.attacks = 0
            b.weapon_attacks = {}
            b.forms = set()

    # -- declarations ------------------------------------------------------------------------------------
    def _declare(self, fight: Fight, f: Fighter, b: Book, tick: Tick, at: str, period: int) -> Declaration | None:
        if b.casting_until >= period and f.casting is not None and b.casting_decl is not None:
            return self._continuing(fight, f, b.casting_decl, tick, at, b.casting_note)
        b.casting_until = 0
        carry, pending = b.carry, b.pending
        b.carry = b.pending = None
        if carry is not None:
            return fight.declare(f, tick, at, resume=carry, note=b.carry_note)
        if pending is not None and f.remaining == 0 and not f.routed:
            return fight.declare(f, tick, at, resume=pending, note="closed in last phase: strikes now (P1-07)")
        b.con_checked = False
        return fight.declare(f, tick, at)

    @staticmethod
    def _continuing(fight: Fight, f: Fighter, decl: Declaration, tick: Tick, at: str, note: str) -> None:
        fight.declare(f, tick, at, resume=decl, note=note)
        return None

    def _delay(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, why: str, what: str) -> None:
        """A forced delay: the declaration waits for the next phase and is not consumed again (CONTRACT)."""
        b = self.book(fight, f)
        b.carry = d
        b.carry_note = f"held over: {what}"
        fight.emit("delay", (rnd, phase, 0, 1), f"round {rnd}, phase {phase}, stating intentions", f.name,
                   why=why, detail=f"waits: {what}")

    # -- scheduling ----------------------------------------------------------------------------------------
    def _schedule(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, period: int) -> None:
        b = self.book(fight, f)
        action = d.action
        if action != "move" and not (action == "melee" and (d.charge or f.remaining > 0)):
            b.pace = 0  # a combatant doing something else has stopped (C2-19, simplified)
        if action in ("melee", "missile"):
            if d.charge:
                self._charge(fight, f, d, rnd, phase, period)
            elif action == "melee" and f.remaining > 0:
                self._close(fight, f, d, rnd, phase, period)
            else:
                self._attack(fight, f, d, rnd, phase, period)
        elif action == "cast":
            self._cast(fight, f, d, rnd, phase, period)
        elif action == "move":
            self._move(fight, f, d, rnd, phase, period)
        elif action in ("misc", "wait"):
            what = d.misc if action == "misc" else (d.wait if isinstance(d.wait, str) else "")
            if action == "misc" and "component" in (d.misc or "").lower():
                b.used_m = False
            fight.push(Step((rnd, phase, 7, 1), f, action, self._at_move(rnd, phase),
                            "miscellaneous actions come after the phase's attacks and spells, with the movement "
                            "(P1-10, C2-24)", decl=d, note=str(what or "")))

    def _at_hs(self, rnd: int, phase: int, slot: int, track: str) -> str:
        return f"round {rnd}, phase {phase}, half-segment {6 * (phase - 1) + slot} ({track})"

    @staticmethod
    def _at_move(rnd: int, phase: int) -> str:
        return f"round {rnd}, phase {phase}, movement"

    @staticmethod
    def _phase_name(period: int) -> str:
        return f"{(period - 1) % 3 + 1} of round {(period + 2) // 3}"

    # -- attacks ---------------------------------------------------------------------------------------
    def _rate(self, f: Fighter, weapon: Weapon) -> Any:
        """C2-26: the favoured (first) weapon has the combatant's rate; another its own, unspecialised."""
        if weapon is f.weapons[0] or f.spec.attacks is not None or not f.spec.specialist:
            return f.attacks
        return attacks_per_round(f.spec.klass, f.spec.level, scheme="2e", specialist=False)

    @staticmethod
    def _attacks(f: Fighter, d: Declaration) -> Any:
        """Attacks per round; with a missile weapon, its fire rate times that (as P2-08)."""
        if d.action == "missile":
            return f.attacks * f.weapon(d.weapon, missile=True).rate
        return f.attacks

    def _parts(self, f: Fighter, d: Declaration) -> list[tuple[Weapon, str]]:
        """The weapons and targets of one attack action: a routine's parts (C2-07) or the one weapon."""
        target = d.melee or d.missile or ""
        routine = d.extra.get("routine")
        if d.extra.get("touch"):
            spell = f.spells.get(str(d.extra["touch"]))
            damage = spell.damage if spell is not None and spell.damage is not None else f.weapon(None).damage
            touch = Weapon.model_validate({"name": f"touch of {d.extra['touch']}", "sf": 1, "damage": damage.text})
            return [(touch, target)]
        if isinstance(routine, list) and routine:
            targets = d.extra.get("targets")
            names = [str(t) for t in targets] if isinstance(targets, list) else [target] * len(routine)
            return [(f.weapon(str(w)), names[i] if i < len(names) else target) for i, w in enumerate(routine)]
        return [(f.weapon(d.weapon, missile=d.action == "missile"), target)]

    def _attack(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, period: int,
                *, contact: bool = False) -> None:
        """P1-07 one attack action a phase; P1-04 its band; C2-25 double attacks; C2-07 routines."""
        b = self.book(fight, f)
        state = fight.state
        target = state.fighters.get(d.melee or d.missile or "")
        touch = bool(d.extra.get("touch"))
        defenseless = target is not None and self._defenseless(fight, target, period)
        if b.cast_round == rnd and not touch:
            self._delay(fight, f, d, rnd, phase, "a caster who cast (or began a spell) this round cannot attack "
                        "physically in it (C2-09)", "until the next round")
            return
        if touch and not self._charged(f, b, str(d.extra.get("touch"))):
            fight.push(Step((rnd, phase, 1, 0), f, "melee", self._at_hs(rnd, phase, 1, b.track), "", decl=d,
                            target=d.melee, note=f"no charged {d.extra.get('touch')} to deliver (C2-10)",
                            tags=frozenset({"refused"})))
            return
        due = attacks_in_round(self._attacks(f, d), rnd)
        if d.extra.get("ambush") is True and target is not None and not (rnd == 1 and phase == 1):
            self._ambush(fight, f, target, d, rnd, phase, period)
        if b.attacks >= due and not defenseless and not touch:
            self._delay(fight, f, d, rnd, phase, f"all {due} of its attacks this round are spent (P1-07, P1-13)",
                        "until the next round")
            return
        parts = self._parts(f, d)
        if len(parts) > 1:
            parts = self._routine_parts(f, b, parts, rnd)
        if not parts:
            self._delay(fight, f, d, rnd, phase, "every weapon of the routine has used its attacks this round "
                        "(C2-26)", "until the next round")
            return
        extra = self._sf_terms(fight, f, d, rnd, phase)
        speeds = [(w, t, adjusted_sf(f, w, extra)) for w, t in parts]
        slowest = max(speeds, key=lambda x: x[2].sf)[2]
        winner = b.track == "winner"
        ambush = d.extra.get("ambush") is True and rnd == 1 and phase == 1 and f.side in state.surprisers
        sf = 1 if ambush else slowest.sf
        slot = band(sf, winner=winner)
        if not defenseless and not touch:
            b.attacks += 1
        b.attack_round = rnd
        b.attacked_phase = period
        for w, _t in parts:
            b.weapon_attacks[w.name] = b.weapon_attacks.get(w.name, 0) + 1
            b.forms.add(w.name)
        if touch:
            b.charged = None
        ex = fight.explain
        why = ""
        if ex:
            if ambush:
                why = f"{b.track} track, an ambush opening the battle strikes at SF 1 (C2-22): band <2, "
            else:
                routine = " (the routine's slowest part, C2-07)" if len(parts) > 1 else ""
                why = f"{b.track} track, {slowest.text()}{routine} falls in band {band_text(sf)}: "
            why += f"half-segment {6 * (phase - 1) + slot} of phase {phase} (P1-04)"
        kind = d.action if d.action in ("melee", "missile") else "melee"
        tags = frozenset({"touch"}) if touch else frozenset()
        if contact:  # C2-27: closing on a surprised foe, the blow comes at the end of the movement
            tick: Tick = (rnd, phase, 7, 2)
            at = self._at_move(rnd, phase)
            why = "closed on a surprised foe: attacks at the end of its movement (C2-27)" if ex else ""
        else:
            tick, at = (rnd, phase, slot, 0), self._at_hs(rnd, phase, slot, b.track)
        for i, (w, t, _s) in enumerate(speeds):
            fight.push(Step(tick, f, kind, at, why, decl=d, target=t, weapon=w, index=i, tags=tags))
        # C2-25: more attacks due than attack phases left: a second blow in this phase, SF half-segments later
        left = due - b.attacks
        if not contact and not defenseless and not touch and len(parts) == 1 and left > 3 - phase and left > 0:
            w, t, s = speeds[0]
            second = min(6, slot + s.sf)
            b.attacks += 1
            fight.push(Step((rnd, phase, second, 0), f, kind, self._at_hs(rnd, phase, second, b.track),
                            f"double attack: {left} attacks still due with {3 - phase} attack phases left, so the "
                            f"second falls on half-segment {slot} + SF {s.sf} = {slot + s.sf}"
                            + (" (held to the phase's last)" if slot + s.sf > 6 else "") + " (C2-25)" if ex else "",
                            decl=d, target=t, weapon=w, index=len(speeds)))

    def _routine_parts(self, f: Fighter, b: Book, parts: list[tuple[Weapon, str]],
                       rnd: int) -> list[tuple[Weapon, str]]:
        """C2-26: a part whose weapon has used its own attacks drops out; split forms: each form once a round."""
        out = []
        for w, t in parts:
            if self.opt["split_forms"]:
                if w.name in b.forms:
                    continue
            elif b.weapon_attacks.get(w.name, 0) >= attacks_in_round(self._rate(f, w), rnd):
                continue
            out.append((w, t))
        return out

    def _sf_terms(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int) -> list[tuple[int, str]]:
        extra: list[tuple[int, str]] = []
        if d.extra.get("reposition") is True:
            extra.append((2, "repositioning (C2-03)"))
        if d.extra.get("draw") is True:
            extra.append((3, "drop and draw (C2-24)"))
        situation = d.extra.get("situation")
        for s in situation if isinstance(situation, list) else ():
            extra.append((SITUATIONS[str(s)], f"{s} (C2-29)"))
        return extra

    def _defenseless(self, fight: Fight, target: Fighter, period: int) -> bool:
        """C2-08: a caster casting a spell with S, or a prone combatant."""
        if self.book(fight, target).prone_until >= period:
            return True
        if target.casting is not None or self.book(fight, target).casting_until >= period:
            spell = target.spells.get(target.casting or "")
            return spell is not None and "S" in spell.components
        return False

    def _close(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, period: int) -> None:
        """P1-07, C2-16: closing takes this phase's move; the blow comes next phase (the orc and the archer)."""
        b = self.book(fight, f)
        third = self._per_phase(f, max(b.pace, 1))
        feet = min(f.remaining, third)
        target = fight.state.fighters.get(d.melee or "")
        arrives = feet >= f.remaining
        surprised = target is not None and self.book(fight, target).lost_phase == period
        why = (f"closing {f.remaining} ft on {d.melee}: up to 1/3 of MV {f.spec.mv} = {third} ft this phase, after "
               "the attacks (C2-16, P1-07)")
        if arrives and not surprised:
            why += "; it strikes next phase"
            b.pending = d
        self._push_move(fight, f, d, rnd, phase, feet, "close", why, target=d.melee)
        if arrives and surprised:
            self._attack(fight, f, d.model_copy(update={"distance": 0}), rnd, phase, period, contact=True)

    def _per_phase(self, f: Fighter, pace: int) -> int:
        """C2-16: 1/3 of the current MV per phase, in feet (MV 12: 40 ft)."""
        return f.spec.mv * 10 * pace // 3

    def _push_move(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, feet: int, mode: str,
                   why: str, *, target: str | None = None, tags: frozenset[str] = frozenset(), sub: int = 1) -> None:
        at = self._at_move(rnd, phase)
        if self.opt["incremental_movement"] and feet >= 10 and sub == 1:
            squares = half_segment_moves(feet // 10)
            moved = 0
            for s, n in enumerate(squares, start=1):
                if n:
                    moved += n * 10
                    last = moved >= feet - feet % 10
                    fight.push(Step((rnd, phase, s, 1), f, "move", self._at_hs(rnd, phase, s, "movement"),
                                    f"{why}; spread over the half-segments, {n} square(s) on half-segment "
                                    f"{6 * (phase - 1) + s} (C2-23, Table 3)", decl=d,
                                    feet=n * 10 + (feet % 10 if last else 0), mode=mode, target=target, tags=tags,
                                    note=f"{mode} {n * 10} ft"))
            return
        fight.push(Step((rnd, phase, 7, sub), f, "move", at, why, decl=d, feet=feet, mode=mode, target=target,
                        tags=tags, note=f"{mode} {feet} ft"))

    # -- casting ---------------------------------------------------------------------------------------
    def _cast(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, period: int) -> None:
        """P1-05 the caster's track; C2-09 one casting a round; C2-11, C2-13, C2-14."""
        b = self.book(fight, f)
        spell = f.spells[d.cast or ""]
        ex = fight.explain
        if b.cast_round == rnd:
            self._delay(fight, f, d, rnd, phase, "only one casting a round, and not after a ruined one (C2-09, "
                        "C2-13)", "until the next round")
            return
        if b.attack_round == rnd:
            self._delay(fight, f, d, rnd, phase, "it attacked physically this round, so it cannot cast in it "
                        "(C2-09)", "until the next round")
            return
        if b.hit_last_phase and not b.con_checked:
            b.con_checked = True
            given = d.dice_given[0].other("con") if d.dice_given else None
            roll = fight.roller.die(20, "CON check", f.name, given)
            ok = roll <= f.spec.con
            fight.emit("check", (rnd, phase, 0, 1), f"round {rnd}, phase {phase}, stating intentions", f.name,
                       passed=ok, why="hit before the phase it begins a spell: a CON check or the start is delayed "
                       "one phase (C2-13)", detail=f"d20 {roll} vs CON {f.spec.con}: "
                       + ("passes" if ok else "fails, the spell begins a phase later"))
            if not ok:
                self._delay(fight, f, d, rnd, phase, "failed the CON check after being hit (C2-13)",
                            f"{spell.name} begins next phase")
                return
        if self.opt["ready_components"] and "M" in spell.components and b.used_m:
            b.used_m = False
            self._delay(fight, f, d, rnd, phase, "material components must be in hand: this phase readies them "
                        "(C2-11)", f"{spell.name} begins next phase")
            return
        units = spell.ct
        terms = [f"CT {spell.ct}"]
        if d.extra.get("reposition") is True:
            units += 1
            terms.append("+1 repositioning (C2-03)")
        hold = d.extra.get("hold")
        if isinstance(hold, int) and hold > 0 and self.opt["hold_spells"]:
            units += hold
            terms.append(f"+{hold} held (C2-14)")
        track = b.track
        winner = track == "winner"
        if spell.ct >= ROUND_CT:
            if phase != 1:
                self._delay(fight, f, d, rnd, phase, f"a spell of {spell.ct // ROUND_CT} round(s) is begun in phase 1 "
                            "and completes in the endphase (P1-05, P1-11)", "until phase 1 of the next round")
                return
            rounds = spell.ct // ROUND_CT
            last = rnd + rounds - 1
            slot = 1 if winner else 2
            tick: Tick = (last, 4, slot, 0)
            at = f"round {last}, endphase, half-segment {18 + slot} ({track})"
            why = (f"{track} track, a {rounds}-round spell completes in the endphase: half-segment {18 + slot}"
                   + (f" of round {last}" if rounds > 1 else "") + " (P1-05, P1-11)")
            until = 3 * last
        else:
            if units - (hold if isinstance(hold, int) and self.opt["hold_spells"] else 0) > MAX_CT[phase]:
                self._delay(fight, f, d, rnd, phase, f"begun in phase {phase} a spell may have CT {MAX_CT[phase]} "
                            f"at most; {' '.join(terms)} = {units} (P1-05)", "until phase 1 of the next round")
                return
            rel = ct_half_segment(units, winner=winner)
            absolute = 6 * (phase - 1) + rel
            if absolute > 18:  # C2-14: held into the next round, counted on that round's track
                room = 3 * (4 - phase)
                b.held = (spell, d, units - room)
                tick, at = (rnd + 1, 1, 0, 2), f"round {rnd + 1}, phase 1, stating intentions"
                why = ""
                until = 3 * rnd + 1
            else:
                ph, slot = (absolute - 1) // 6 + 1, (absolute - 1) % 6 + 1
                tick, at = (rnd, ph, slot, 0), self._at_hs(rnd, ph, slot, track)
                counted = f"{' '.join(terms)} = {units}" if len(terms) > 1 else terms[0]
                parity = "odd" if winner else "even"
                why = (f"{track} track, {counted}: the {_nth(units)} {parity} half-segment from the start of phase "
                       f"{phase} is half-segment {absolute} (P1-05)") if ex else ""
                until = 3 * (rnd - 1) + ph
        b.cast_round = rnd
        b.casting_until = until
        b.casting_decl = d
        b.casting_note = f"casting {spell.name}"
        if "M" in spell.components:
            b.used_m = True
        if spell.touch:
            b.charged = (spell.name, f.memorized.get(spell.name, 0))
        fight.push(Step((rnd, phase, 0, 1), f, "cast-start", f"round {rnd}, phase {phase}, stating intentions",
                        f"begins {spell.name} at the start of phase {phase} (P1-07)", decl=d, spell=spell,
                        target=d.at))
        if b.held is None or b.held[0] is not spell:
            fight.push(Step(tick, f, "cast", at, why, decl=d, spell=spell, target=None if spell.touch else d.at,
                            note=f"{spell.name} charged for a touch (C2-10)" if spell.touch else ""))

    def _held_over(self, fight: Fight, rnd: int) -> None:
        """C2-14: a spell held past the round completes on the new round's track and is its casting."""
        for f in fight.state.fighters.values():
            b = self.book(fight, f)
            if b.held is None:
                continue
            spell, d, units = b.held
            b.held = None
            if not f.active or f.casting != spell.name:
                continue
            winner = b.track == "winner"
            rel = ct_half_segment(units, winner=winner)
            ph, slot = (rel - 1) // 6 + 1, (rel - 1) % 6 + 1
            b.cast_round = rnd
            b.casting_until = 3 * (rnd - 1) + ph
            fight.push(Step((rnd, ph, slot, 0), f, "cast", self._at_hs(rnd, ph, slot, b.track),
                            f"held into round {rnd}: {units} more unit(s) on this round's {b.track} track: "
                            f"half-segment {rel}; it is this round's casting (C2-14, P1-06)", decl=d, spell=spell,
                            target=None if spell.touch else d.at))

    # -- movement --------------------------------------------------------------------------------------
    def _pace(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int) -> tuple[int, str, bool]:
        """C2-19: the pace this phase, its explanation, and whether a shortened stop needs a DEX check."""
        b = self.book(fight, f)
        old = b.pace
        wanted = d.extra.get("pace")
        want = int(wanted) if isinstance(wanted, int) else max(old, 1)
        text = ""
        if want > max(old, 1):
            top = max(old, 1) + 2
            new = min(want, top)
            text = f"accelerates x{max(old, 1)} -> x{new}"
            if want > top:
                text += f" (at most +2 a phase, not x{want})"
            if self.opt["speed_checks"]:
                given = d.dice_given[0].other("str") if d.dice_given else None
                roll = fight.roller.die(20, "STR check", f.name, given)
                if roll > f.spec.str_:
                    text += f"; STR check d20 {roll} vs {f.spec.str_} fails: stays x{max(old, 1)}"
                    new = max(old, 1)
                else:
                    text += f"; STR check d20 {roll} vs {f.spec.str_} passes"
            text += " (C2-19)"
        elif want < old:
            new = max(want, old - 2)
            text = f"decelerates x{old} -> x{new}" + (" (2 factors at once)" if new > want else "") + " (C2-19)"
        else:
            new = max(want, 1) if old == 0 else want
        b.pace = new
        b.top_pace = max(b.top_pace, new)
        return new, text, want < new

    def _move(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, period: int) -> None:
        """P1-07 1/3 MV a phase; C2-17 closing; C2-18 withdraw and flee; C2-19 speed changes."""
        b = self.book(fight, f)
        mode = d.mode or "full"
        feet = d.move or 0
        if f.engaged and mode not in ("withdraw", "flee"):
            fight.push(Step((rnd, phase, 7, 1), f, "move", self._at_move(rnd, phase),
                            f"engaged with {', '.join(sorted(f.engaged))}: it may only withdraw, flee or fight "
                            "(C2-17)", decl=d, tags=frozenset({"refused"}), note="cannot move away normally"))
            return
        if mode == "withdraw":
            third = self._per_phase(f, 1) // 3
            feet = min(feet, third)
            self._push_move(fight, f, d, rnd, phase, feet, mode, f"withdrawing at 1/3 of the per-phase move: "
                            f"{f.spec.mv * 10} / 3 / 3 = {third} ft (C2-18)", tags=frozenset({"disengage"}))
            return
        pace, text, stopping = self._pace(fight, f, d, rnd, phase)
        per = self._per_phase(f, pace)
        why = f"moves after the phase's attacks, up to 1/3 of MV {f.spec.mv}"
        why += f" x{pace} = {per} ft" if pace > 1 else f" = {per} ft"
        why += " (P1-07, C2-16)"
        if text:
            why += "; " + text
        tags = frozenset({"disengage", "leaves"}) if mode == "flee" else frozenset()
        if mode == "flee":
            why += "; fleeing: every engaged foe gets a free attack (C2-18)"
        if stopping and pace > 1:
            least = per // 2
            if feet < least:
                short = least - feet
                penalty = -(-short // 10)
                given = d.dice_given[0] if d.dice_given else None
                roll = fight.roller.die(20, "DEX check", f.name, given.other("dex") if given else None)
                need = f.spec.dex - penalty
                ok = roll <= need
                why += (f"; momentum: at x{pace} it must still move {least} ft (half of {per}); stopping in {feet} ft "
                        f"needs a DEX check at -{penalty}: d20 {roll} vs {need}, "
                        + ("passes" if ok else "fails: prone 1d4 phases") + " (C2-19)")
                if not ok:
                    n = fight.roller.die(4, "prone phases", f.name, given.other("prone") if given else None)
                    b.prone_until = period + n
                    why += f"; d4 {n}: prone through phase {self._phase_name(period + n)}"
                b.pace = self._target_pace(d)
            else:
                b.pace = self._target_pace(d)
        feet = min(feet, per)
        self._push_move(fight, f, d, rnd, phase, feet, mode, why, tags=tags)

    @staticmethod
    def _target_pace(d: Declaration) -> int:
        wanted = d.extra.get("pace")
        return int(wanted) if isinstance(wanted, int) else 1

    def _charge(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int, period: int) -> None:
        """C2-20: announced with a target; the hit comes on contact in the movement portion."""
        b = self.book(fight, f)
        pace, text, _ = self._pace(fight, f, d, rnd, phase)
        run = self._per_phase(f, pace)
        remaining = f.remaining
        target = d.melee or ""
        why = (f"charging {target} at x{pace} (MV {f.spec.mv} x{pace} / 3 = {run} ft this phase)"
               + (f"; {text}" if text else ""))
        if pace < 2:
            fight.push(Step((rnd, phase, 7, 0), f, "move", self._at_move(rnd, phase), why + ": a charge needs at "
                            "least twice base MV (C2-20)", decl=d, tags=frozenset({"refused"}),
                            note="too slow to charge"))
            return
        if remaining > run:
            self._push_move(fight, f, d, rnd, phase, run, "charge", f"{why}; {remaining} ft to go, no contact this "
                            "phase (C2-20)", target=target)
            return
        b.attacks += 1
        b.attack_round = rnd
        b.attacked_phase = period
        overrun = run - remaining
        fight.push(Step((rnd, phase, 7, 0), f, "move", self._at_move(rnd, phase), f"{why}; contact after "
                        f"{remaining} ft, in the movement portion (C2-20)", decl=d, feet=remaining, mode="charge",
                        target=target, note=f"charges {remaining} ft into {target}"))
        strike = Step((rnd, phase, 7, 0), f, "melee", self._at_move(rnd, phase), "a charge strikes on contact, in "
                      "the movement portion, its damage landing before an unready defender can answer (C2-20)",
                      decl=d, target=target, weapon=f.weapon(d.weapon), tags=frozenset({"charge"}))
        fight.push(strike)
        defender = fight.state.fighters.get(target)
        if defender is None:
            return
        setter = fight.memo.sets.get(f.name)
        if setter is not None and setter[0] is defender:
            return  # C2-21: the readied defender strikes simultaneously (pushed by _readied_wait)
        db = self.book(fight, defender)
        if db.attacked_phase != period and db.attacks < attacks_in_round(defender.attacks, rnd):
            fight.push(Step((rnd, phase, 7, 1), defender, "melee", self._at_move(rnd, phase),
                            f"charged by {f.name} and not ready: it answers only after the charger's blow, before the "
                            "charger runs out of range (C2-20)", target=f.name, weapon=defender.weapon(None),
                            tags=frozenset({"counter"})))
        if overrun:
            fight.push(Step((rnd, phase, 7, 2), f, "move", self._at_move(rnd, phase), f"momentum carries the charger "
                            f"on past {target}: {run} - {remaining} = {overrun} ft (C2-20)", decl=d, feet=0,
                            mode="charge", note=f"overruns {target} by {overrun} ft"))

    def _readied_wait(self, fight: Fight, f: Fighter, d: Declaration, rnd: int, phase: int) -> None:
        """C2-21: a readied weapon strikes as the foe arrives: simultaneously with a charge, before a move."""
        foe = fight.state.fighters.get(d.melee or d.missile or "")
        b = self.book(fight, f)
        fdecl = foe.declared if foe is not None else None
        weapon = f.weapon(d.weapon, missile=d.action == "missile")
        trigger = ""
        if foe is not None and fdecl is not None and foe.active:
            if fdecl.action == "melee" and fdecl.charge and fdecl.melee == f.name:
                trigger = "charges it"
            elif fdecl.action == "melee" and fdecl.melee == f.name and foe.remaining > 0 and (
                    self.book(fight, foe).pace > 1):
                trigger = "closes on it at speed"
            elif d.action == "missile" and (fdecl.action == "move" or foe.remaining > 0):
                trigger = "moves into the covered area"
        if not trigger:
            fight.push(Step((rnd, phase, 7, 1), f, "wait", self._at_move(rnd, phase), "a readied weapon waits for "
                            f"the foe to charge or come on (C2-21): {d.melee or d.missile} did not", decl=d,
                            note=f"{weapon.name} ready"))
            return
        b.attacks += 1
        b.attack_round = rnd
        b.attacked_phase = 3 * (rnd - 1) + phase
        polearm = d.action == "melee" and weapon.settable and "charges" in trigger
        why = (f"readied against {foe.name if foe else ''}, which {trigger}: the SF is spent in the readying, so it "
               "strikes as the foe arrives" + (", simultaneously with the charge" if "charges" in trigger else
                                               ", first") + (" with a set polearm's double damage" if polearm else "")
               + " (C2-21)")
        fight.push(Step((rnd, phase, 7, 0), f, d.action or "melee", self._at_move(rnd, phase), why, decl=d,
                        target=foe.name if foe else None, weapon=weapon,
                        tags=frozenset({"set", "polearm"} if polearm else {"set"})))

    # -- resolution hooks ------------------------------------------------------------------------------
    def refuse(self, fight: Fight, step: Step) -> str | None:
        if "refused" in step.tags:
            return step.note + (f": {step.why}" if step.why else "")
        a = step.actor
        if step.kind == "move" and step.mode != "charge":
            # C2-21: a readied missile covering the mover's path: it completes the move only on a surprise check
            setter = fight.memo.sets.get(a.name)
            if setter is not None and setter[1].action == "missile" and setter[0].active:
                given = step.decl.dice_given[0].other("surprise") if step.decl and step.decl.dice_given else None
                roll = fight.roller.die(10, "surprise", a.name, given)
                if roll <= 3:
                    return (f"caught by {setter[0].name}'s covering fire: surprise check d10 {roll} (1-3 fails), the "
                            "move is not completed (C2-21)")
        if step.kind in ("melee", "missile") and step.target is not None and step.decl is not None:
            target = fight.state.fighters[step.target]
            if not target.active and not step.tags & {"counter", "set"}:
                return self._retarget(fight, step, target)
        return None

    def _retarget(self, fight: Fight, step: Step, target: Fighter) -> str:
        """C2-04: the target fell on an earlier half-segment: strike another at +3 SF, or keep the attack."""
        a = step.actor
        b = self.book(fight, a)
        other = fight.state.fighters.get(str(step.decl.extra.get("retarget"))) if step.decl else None
        rnd, phase = step.tick[0], step.tick[1]
        if other is None or not other.active or phase > 3 or step.index > 0:
            if step.index == 0 and "touch" not in step.tags:
                b.attacks -= 1  # nothing was swung: the attack is kept for a later phase
            return (f"{target.name} fell on an earlier half-segment: the attack is held for a later phase "
                    "(C2-04)")
        speed = adjusted_sf(a, step.weapon or a.weapon(None), [(3, "retargeting (C2-04)")])
        slot = max(band(speed.sf, winner=b.track == "winner"), step.tick[2])
        fight.push(Step((rnd, phase, slot, 0), a, step.kind, self._at_hs(rnd, phase, slot, b.track),
                        f"{b.track} track, retargeting {other.name}: {speed.text()} falls in band {band_text(speed.sf)}"
                        f": half-segment {6 * (phase - 1) + slot} (C2-04)", decl=step.decl, target=other.name,
                        weapon=step.weapon, index=step.index, tags=frozenset({"retarget"})))
        return f"{target.name} fell on an earlier half-segment: {a.name} turns on {other.name} at +3 SF (C2-04)"

    def _charged(self, f: Fighter, b: Book, spell: str) -> bool:
        """C2-10: a touch spell is charged once its casting completed (a copy left memory) and not delivered."""
        return b.charged is not None and b.charged[0] == spell and f.memorized.get(spell, 0) < b.charged[1]

    def _ambush(self, fight: Fight, f: Fighter, target: Fighter, d: Declaration, rnd: int, phase: int,
                period: int) -> None:
        """C2-22, C2-27: ambushed mid-fight, the victim must pass a surprise roll (+1 casting) to answer."""
        given = d.dice_given[0].other("surprise") if d.dice_given else None
        roll = fight.roller.die(10, "surprise", target.name, given)
        bonus = 1 if target.casting is not None else 0
        ok = roll + bonus > 3
        if not ok:
            self.book(fight, target).lost_phase = period + 1
        fight.emit("check", (rnd, phase, 0, 1), f"round {rnd}, phase {phase}, stating intentions", target.name,
                   passed=ok, why=f"ambushed by {f.name} mid-fight: a surprise roll to return the attack (C2-22, "
                   "C2-27)", detail=f"d10 {roll}" + (" +1 (mid-incantation)" if bonus else "") + f" = {roll + bonus}: "
                   + ("not surprised" if ok else "surprised (1-3): loses its next phase"))

    def attack_mods(self, fight: Fight, step: Step, target: Fighter) -> AttackMods:
        mods = super().attack_mods(fight, step, target)
        period = fight.period
        if "charge" in step.tags and self.opt["charge_bonus"]:
            mods.add("hit", int(self.opt["charge_bonus"]), "charging, C2-20")
        if "polearm" in step.tags:
            mods.dice_times = 2
        tdecl = target.declared
        dex = dex_defense_adjustment(target.spec.dex)
        if self._defenseless(fight, target, period):
            mods.add("ac", 4, f"{target.name} stationary and defenseless, C2-08")
            if dex < 0:
                mods.add("ac", -dex, "no DEX bonus, C2-08")
        elif target.casting is not None and dex < 0:
            mods.add("ac", -dex, "casting: no DEX bonus, C2-12")
        elif tdecl is not None and tdecl.charge and tdecl.action == "melee":
            if dex < 0:
                mods.add("ac", -dex, "charging: no DEX bonus, C2-20")
            if target.spec.mounted:
                mods.add("ac", -2, "mounted charger, C2-20")
        return mods

    def opportunity(self, fight: Fight, step: Step) -> list[tuple[Fighter, Weapon, str]]:
        """C2-18: a fleer gives every engaged foe a free attack, unless it outruns one or an ally interposes."""
        if step.mode != "flee":
            return []
        mover = step.actor
        state = fight.state
        period = fight.period
        out = []
        for name in sorted(mover.engaged, key=fight.order):
            foe = state.fighters[name]
            if not foe.active:
                continue
            if any(g is not mover and g.active and g.declared is not None and g.declared.melee == name
                   for g in state.sides[mover.side]):
                continue  # an ally interposes
            fb = self.book(fight, foe)
            if (self.book(fight, mover).track == "winner" and fb.attacked_phase == period
                    and foe.spec.mv <= mover.spec.mv):
                continue  # the winner outruns a foe that already struck this phase
            out.append((foe, foe.weapon(None), f"free attack: {mover.name} flees from melee (C2-18)"))
        return out

    # -- load-time checks ----------------------------------------------------------------------------------
    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:
        from affray.io.load import expand

        enc = loaded.encounter
        specs = {name: c for name, _s, c, _l in expand(enc)}
        for actor, decls in enc.plan.items():
            spec = specs.get(actor)
            if spec is None:
                continue
            for i, d in enumerate(decls):
                loc = ("plan", actor, i)
                for key in ("reposition", "set", "draw", "ambush"):
                    if key in d.extra and not isinstance(d.extra[key], bool):
                        yield loaded.problem(loc + (key,), f"{key} takes true or false")
                pace = d.extra.get("pace")
                if pace is not None and (not isinstance(pace, int) or isinstance(pace, bool) or not 1 <= pace <= 5):
                    yield loaded.problem(loc + ("pace",), f"pace is a multiple of base MV from 1 to 5 (C2-19), not "
                                         f"{pace!r}")
                hold = d.extra.get("hold")
                if hold is not None and (not isinstance(hold, int) or isinstance(hold, bool) or not 1 <= hold <= 6):
                    yield loaded.problem(loc + ("hold",), f"a spell is held 1 to 6 CT units (C2-14), not {hold!r}")
                if hold is not None and d.action != "cast":
                    yield loaded.problem(loc + ("hold",), "hold goes with a cast declaration (C2-14)")
                situation = d.extra.get("situation")
                if situation is not None and (not isinstance(situation, list)
                                              or any(s not in SITUATIONS for s in situation)):
                    yield loaded.problem(loc + ("situation",), "situation lists modifiers among: "
                                         + ", ".join(SITUATIONS) + " (C2-29)")
                weapons = {w.name for w in spec.weapons}
                routine = d.extra.get("routine")
                if routine is not None and (not isinstance(routine, list) or not routine
                                            or any(w not in weapons for w in routine)):
                    yield loaded.problem(loc + ("routine",), "routine lists weapons the combatant carries: "
                                         + (", ".join(sorted(weapons)) or "none") + " (C2-07)")
                targets = d.extra.get("targets")
                if targets is not None and (not isinstance(targets, list) or any(t not in specs for t in targets)):
                    yield loaded.problem(loc + ("targets",), "targets lists combatants, one per part of the routine")
                retarget = d.extra.get("retarget")
                if retarget is not None and retarget not in specs:
                    yield loaded.problem(loc + ("retarget",), f"{retarget!r} is not a combatant (C2-04)")
                touch = d.extra.get("touch")
                if touch is not None:
                    spell = next((s for s in spec.spells if s.name == touch), None)
                    if spell is None or not spell.touch:
                        yield loaded.problem(loc + ("touch",), f"{touch!r} is not a touch spell {actor} knows; "
                                             "mark the spell touch: true (C2-10)")
                if d.charge and isinstance(pace, int) and pace < 2:
                    yield loaded.problem(loc + ("pace",), "a charge runs at least twice base MV: pace 2 or more "
                                         "(C2-20)")
                for k, given in enumerate(d.dice_given):
                    where = (*loc, "dice", k) if isinstance(d.dice, list) else (*loc, "dice")
                    for key, die in (("con", 20), ("str", 20), ("dex", 20), ("prone", 4), ("surprise", 10)):
                        v = given.other(key)
                        if v is not None and not 1 <= v <= die:
                            yield loaded.problem((*where, key), f"{v} is not a d{die} result (1-{die})")


def _nth(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if n not in (11, 12, 13) else "th"
    return f"{n}{suffix}"
