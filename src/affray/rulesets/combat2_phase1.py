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
- C2-12 a caster's 10-ft shift while casting is not modelled. The release timing matters only where
  movement shares the half-segments (C2-23): a loser's spell goes off after that half-segment's
  movement, a winner's before it (``release: after`` waits); "at the midpoint" is not modelled.
  C2-23 spreads moves over the half-segments (Table 3), but a move never meets anyone on the way.
- A forbidden action (the round's attacks spent, a second casting, an attack after casting, a CT
  too long for its phase) waits with a ``delay`` event and is tried again next phase (CONTRACT).
- C2-26 the favoured weapon of a two-weapon routine is the first weapon listed; a ``specialist``
  combatant is specialised in it.
- C2-17 parallel riders; C2-18 an interposing ally counts when it declared melee on that foe.
- C2-19 the PH strength chances are a STR check (d20 <= STR) for each rise above base MV; the
  round's CON check is d20 <= CON - (top factor - 1), failure drops to base MV; a combatant that
  does anything but move has stopped (no momentum check).
- C2-20 ramming (DEX and STR checks to stay up) and the charging backstab are not modelled.
- C2-21 a readied defence is maintained from phase to phase while nothing else is declared (option
  ``ready_maintained``); it strikes only a foe that arrives in that phase.
- C2-22 an ambush mid-fight is a declaration ``ambush: true``: its target passes a surprise roll
  (d10 > 3, +1 while casting) or loses its next phase.
- C2-15 psionic tangents are not modelled (a power is a casting of CT 1).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from affray.engine.conditions import unable
from affray.engine.events import Check, Impossible, Initiative, SpellRuined, Surprise, Tick
from affray.engine.fight import Fight, describe_declaration
from affray.engine.rules import KEPT, RUINED, FreeAttack, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step, Until, counted
from affray.engine.words import listed, subject
from affray.errors import Problem
from affray.io.checks import planned
from affray.model.derive import dex_defense_adjustment, dex_reaction_adjustment
from affray.model.encounter import Combatant, Declaration, Dice
from affray.model.order import Order, order_of
from affray.reckon import casualty_morale
from affray.rulesets.combat2 import SITUATIONS
from affray.rulesets.combat2_attacks import Combat2Attacks
from affray.rulesets.combat2_base import Book, Combat2Phase1Options, Memo, Words, book, charged, round_of
from affray.rulesets.combat2_casting import Combat2Casting
from affray.rulesets.combat2_movement import Combat2Movement
from affray.supplements.c2x.agility import agility

if TYPE_CHECKING:
    from affray.io.load import Loaded

__all__ = ["Combat2Phase1", "Combat2Phase1Options", "Combat2Rules"]

#: Blows that are no attack of the round's count or schedule: free ones, answers to a charge, a touch.
_NOT_SCHEDULED = frozenset({"free", "counter", "touch"})


class Combat2Phase1(Ruleset[Memo, Combat2Phase1Options]):
    """Seed 000 Phase System I: d10 group initiative, winner/loser tracks, phases of six half-segments."""

    id = "combat2-phase1"
    title = "Combat II, Phase System I: d10 group initiative, phases and half-segments"
    seed = "000"
    rule_ids = "C2, P1"
    Options = Combat2Phase1Options
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
        "release": "cast, winner with incremental movement: before (default) or after that half-segment's "
                   "movement (C2-12)",
    }
    initiative_die = 10
    periods_per_round = 3  # phases 1-3: the engine's declaration point is a phase
    own_kinds = frozenset({"heal-touch"})  # C2-10: a healing touch, given without an attack roll
    surprise_die = 10
    attack_scheme = "2e"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.words, self.attacks, self.casting, self.movement = self.parts()

    def parts(self) -> tuple[Words, Combat2Attacks, Combat2Casting, Combat2Movement]:
        """The words for moments and the parts that place attacks, spells and moves (Phase System II's differ)."""
        words = Words()
        attacks = Combat2Attacks(self.opt, words)
        return words, attacks, Combat2Casting(self.opt, words), Combat2Movement(self.opt, words, attacks)

    # -- the clock -------------------------------------------------------------------------------------
    def new_state(self) -> Memo:
        return Memo()

    def rules(self) -> list[Rule]:
        return [Combat2Rules(self)]

    def period_end(self, period: int) -> Tick:
        rnd, phase = round_of(period), (period - 1) % 3 + 1
        return (rnd, phase + 1) if phase < 3 else (rnd + 1,)

    def phase_end(self, fight: Fight[Memo], tick: Tick, later: int = 0, unit: str = "phase") -> Until:
        """C2X-03: the end of the phase holding ``tick``, ``later`` phases on (``unit`` round: of its round; "last":
        that phase's last moment, after its movement and combat and before its durations run out)."""
        if unit == "last":
            period = fight.period + later
            rnd, phase = round_of(period), (period - 1) % 3 + 1
            return Until((rnd, phase, 8, 0), self.words.at(rnd, phase, "end of the phase"))
        if unit == "round":
            rnd = round_of(fight.period) + later + 1
            return Until((rnd,), self.words.at(rnd, 0, "start"))
        end = self.period_end(fight.period + later)
        return Until(end, self.words.at(end[0], end[1] if len(end) > 1 else 0, "start"))

    def expiry(self, fight: Fight[Memo], tick: Tick, count: int, unit: str) -> Until:
        """G-08, P2-05: "three phases shall be considered the equivalent of a round"; an effect lasts to the end
        of its phase that many phases on, after that phase's movement and combat (a turn is thirty phases; N
        segments are N CT units, three active half-segments a phase, Table 4: ceil(N / 3) phases, option
        ``segments_per_phase``). Phase System I counts the same (Decision: its rounds are three phases too)."""
        if unit == "segment":
            per = int(self.opt.segments_per_phase)
            phases = -(-count // per)
        else:
            phases = count * {"round": 3, "turn": 30, "phase": 1}[unit]
        done = 3 * (tick[0] - 1) + max(tick[1] if len(tick) > 1 else 1, 1)  # (1,): as the fight begins
        end = done + phases
        rnd, phase = round_of(end), (end - 1) % 3 + 1
        seg = (f" ({count} segments, {self.opt.segments_per_phase} a phase, Table 4, a part counting whole)"
               if unit == "segment" else "")
        return Until((rnd, phase, 8, 1), self.words.at(rnd, phase, "end of the phase"),
                     f"= {counted(phases, 'phase')}{seg}: it ends with {self.words.phase_name(end)}, after its "
                     "movement and combat (P2-05)")

    def begin(self, fight: Fight[Memo], period: int) -> None:  # noqa: C901
        rnd, phase = round_of(period), (period - 1) % 3 + 1
        state = fight.state
        if phase == 1:
            if rnd == 1:
                self._surprise(fight)
            else:
                casualty_morale(fight, self.opt, (rnd, 0, 0), self.words.at(rnd, 0, "start"), "start of the round",
                                "G-07")
            self._initiative(fight, rnd)
        memo = fight.memo
        memo.sets = {}
        # P1-08: losers state their intentions first, then winners (who may take them into account)
        order: list[tuple[Fighter, Book]] = []
        winners: list[tuple[Fighter, Book]] = []
        for f in state.fighters.values():  # one pass, no pair made for everyone (a phase's garbage, in a large fight)
            b = book(fight, f)
            b.hit_last_phase = f.hp < b.hp_mark
            b.hp_mark = f.hp
            if f.active and b.track == "loser":
                order.append((f, b))
            elif f.active and b.track == "winner":
                winners.append((f, b))
        order += winners
        at = self.words.at(rnd, phase, "stating intentions")
        tick = (rnd, phase, 0, 0)
        declared: list[tuple[Fighter, Order]] = []
        heard: tuple[tuple[str, Declaration], ...] | None = None  # the losers' intentions, once they are stated
        for f, b in order:
            if heard is None and b.track == "winner":
                heard = tuple((g.name, d.source) for g, d in declared)
            if b.lost_phase == period:
                fight.delay(tick, at, f.name, "surprised: loses one full phase (C2-27)", "no action this phase")
                continue
            if b.prone_until >= period:
                fight.delay(tick, at, f.name, f"prone until {self.words.phase_name(b.prone_until)}: no attacks, no "
                            "DEX bonus, +4 to be hit (C2-19)", "lies prone")
                continue
            decl = self._declare(fight, f, b, tick, at, period, heard or ())
            if decl is not None:
                declared.append((f, decl))
        sets = [(f, d) for f, d in declared if d.extra.get("set") is True and d.action in ("melee", "missile")]
        for f, d in sets:
            memo.sets[d.melee or d.missile or ""] = (f, d)
        for f, d in declared:
            if (f, d) not in sets:
                self._schedule(fight, f, d, rnd, phase, period)
        for f, d in sets:
            self.movement.readied_wait(fight, f, d, rnd, phase)
        self.casting.phase_started(fight, rnd, phase, period)

    def pending(self, fight: Fight[Memo]) -> bool:
        """An attack owed after closing, a delayed declaration, a spell held into the next round, a touch to give."""
        books = fight.memo.books
        return any(fight.state.fighters[name].active and (b.pending is not None or b.carry is not None
                                                          or b.held is not None or b.completes_in > 0
                                                          or b.touch_at is not None)
                   for name, b in books.items())

    def _round_end(self, rnd: int) -> Tick:
        """After the endphase: the round's bookkeeping."""
        return (rnd, 4, 3, 0)

    def end(self, fight: Fight[Memo], period: int) -> None:
        rnd, phase = round_of(period), (period - 1) % 3 + 1
        if phase != 3:
            return
        for f in fight.state.fighters.values():
            b = book(fight, f)
            if self.opt.speed_checks and f.active and b.top_pace > 1:
                need = f.spec.con - (b.top_pace - 1)
                last = f.declared.dice_given if f.declared is not None else []
                d = fight.roller.die(20, "CON check", f.name, last[0].other("con") if last else None)
                ok = d <= need
                fight.emit(Check, self._round_end(rnd), self.words.at(rnd, 0, "end"), f.name, passed=ok,
                           why=f"a CON check each round at top speed x{b.top_pace} (C2-19)",
                           detail=f"d20 {d} vs CON {f.spec.con} - {b.top_pace - 1} = {need}: "
                           + ("keeps its pace" if ok else "winded: back to base MV"))
                if not ok:
                    b.pace = min(b.pace, 1)
            b.top_pace = b.pace

    # -- round start ------------------------------------------------------------------------------------
    def _surprise(self, fight: Fight[Memo]) -> None:
        """C2-27: a d10 per side, 1-3 surprised; a surprised combatant loses one full phase."""
        enc = fight.encounter
        sides = list(enc.sides)
        tick, at = (1, 0, 0, 0), self.words.at(1, 0, "surprise")
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
        fight.record(Surprise(tick, at, fight.round_at(tick), why="each side d10, 1-3 surprised: a surprised "
                              "individual loses one full phase (C2-27)", detail=detail,
                              surprised=tuple(s for s in sides if s in surprised),
                              surprisers=tuple(s for s in sides if s in surprisers), rolls=fight.rolls()))
        for s in surprised:
            for f in fight.state.sides[s]:
                book(fight, f).lost_phase = 1

    def _initiative(self, fight: Fight[Memo], rnd: int) -> None:
        """P1-01, P1-02: a d10 per side, low wins; each one's DEX moves it between the tracks."""
        state = fight.state
        sides = [s for s in state.sides if state.active_left[s] > 0]
        given = fight.encounter.rolls.initiative.get(rnd, {})
        rolls = {s: fight.roller.die(10, "initiative", s, given.get(s)) for s in sides}
        fight.memo.results = rolls
        tracks: dict[str, str] = {}
        notes: list[str] = []
        ex = fight.explain
        others_of = {s: [rolls[o] for o in sides if o != s] for s in sides}  # once a side, not once a fighter
        lowest_of = {s: min(others) if others else rolls[s] + 1 for s, others in others_of.items()}
        tie_wins = self.opt.tie_track == "winner"
        for f in state.fighters.values():
            if not f.active:
                continue
            others = others_of[f.side]
            lowest = lowest_of[f.side]
            score, ability = agility(fight, f)  # C2X-01: AGI's reaction adjustment with the Agility option
            adj = dex_reaction_adjustment(score)
            mine = rolls[f.side] - adj
            win = mine < lowest or (tie_wins and mine == lowest)
            tracks[f.name] = "winner" if win else "loser"
            book(fight, f).track = tracks[f.name]
            if ex and (adj or win != all(rolls[f.side] < o for o in others)):
                notes.append(f"{f.name} {rolls[f.side]}{-adj:+d} ({ability} {score}) = {mine}: {tracks[f.name]}")
        low = min(rolls.values())
        winners = [s for s in sides if rolls[s] == low]
        text = None
        if ex:  # the lean mode writes no words
            text = ", ".join(f"{s} d10={rolls[s]}" for s in sides) + ": "
            text += (f"{subject(winners[0], 'wins')}" if len(winners) == 1 else f"{listed(winners)} tie for lowest: "
                     f"{'all on the loser track' if self.opt.tie_track == 'loser' else 'all on the winner track'}")
            if notes:
                text += "; " + "; ".join(notes)
        ranks = {s: 1 if s in winners and len(winners) == 1 else 2 for s in sides}
        tick = (rnd, 0, 1, 0)
        fight.record(Initiative(tick, self.words.at(rnd, 0, "initiative"), fight.round_at(tick),
                                why="each side d10, lowest wins; each combatant's roll less its reaction adjustment "
                                "must beat the lowest opposing roll to be on the winner track (P1-01, P1-02)",
                                detail=text, ranks=ranks, results=rolls, tracks=tracks, rolls=fight.rolls()))
        for f in state.fighters.values():
            b = book(fight, f)
            b.attacks = 0
            if b.weapon_attacks:  # (filled together with forms) emptied, not made anew: a new dict and set for
                b.weapon_attacks.clear()  # everyone each round were garbage whose freeing read cold memory
                b.forms.clear()

    # -- declarations ------------------------------------------------------------------------------------
    def _declare(self, fight: Fight[Memo], f: Fighter, b: Book, tick: Tick, at: str, period: int,
                 known: tuple[tuple[str, Declaration], ...] = ()) -> Order | None:
        """``f``'s intentions: a spell it goes on casting, a declaration held over or owed, else the next one (asked
        for with ``known``, the declarations it may take into account)."""
        # What the referee said for it (NAME: ENTRY, or ``plan``) wins over what it would go on with: a spell being
        # cast ("the action may be cancelled": C2-05, a voluntarily interrupted spell still counting as the round's
        # casting), a declaration held over by a forced delay, a blow owed after closing. The seed lets a combatant
        # state new intentions at the start of each phase (P1-08); only within the half-segment of the blow may the
        # target no longer be changed (C2-05), and that moment is past any declaration.
        casting = b.casting_until >= period and f.casting is not None and b.casting_decl is not None
        if (casting or b.carry is not None or b.pending is not None or b.touch_at is not None) and not fight.herald(
                f, tick, at):  # heard first: what the referee says there decides whether it goes on
            return None
        said = fight.said_for(f) and not f.routed
        displaces = ""
        if casting and b.casting_decl is not None:
            if not said:
                return self._continuing(fight, f, b.casting_decl, tick, at, b.casting_note)
            displaces = f"the casting of {f.casting}"
            fight.emit(SpellRuined, tick, at, f.name, spell=f.casting, why=f"{f.name} gives up casting {f.casting} "
                       "for a new declaration: the action may be cancelled, and a voluntarily interrupted spell still "
                       "counts as the round's casting (C2-05, C2-09)" if fight.explain else None,
                       detail="the spell is ruined for this casting")
        b.casting_until = 0
        ready, b.ready = b.ready, None
        carry, pending = b.carry, b.pending
        b.carry = b.pending = None
        touch = self._touch(fight, f, b)
        carry = self._still(fight, f, carry, tick, at, "held over")  # no longer possible: told, and it declares anew
        pending = self._still(fight, f, pending, tick, at, "owed after closing")
        if not said:
            if carry is not None:
                return fight.declare(f, tick, at, resume=carry, note=b.carry_note)
            if pending is not None and f.remaining == 0 and not f.routed:
                return fight.declare(f, tick, at, resume=pending, note="closed in last phase: strikes now (P1-07)")
        else:
            held = carry or (pending if f.remaining == 0 else None)
            if held is not None:
                displaces = displaces or describe_declaration(held, f) + (" (held over)" if held is carry else "")
        b.con_checked = False
        # C2-21: "A ready state MAY be maintained from phase to phase until an attack is made": it stands only if
        # nothing new is declared (the plan's next entry, an answer, a policy's choice)
        kept = ready if ready is not None and self._still_ready(fight, f, ready) else None
        if touch is not None and not said:  # once nothing else is planned: the touch is its declaration (C2-10)
            return fight.declare(f, tick, at, known=known, offer=touch, note="the touch of the spell it cast, in the "
                                 "attack portion of a later phase (C2-10)")
        return fight.declare(f, tick, at, known=known, fallback=kept, displaces=displaces,
                             note="the ready state is maintained until an attack is made (C2-21)" if kept else "")

    def _still_ready(self, fight: Fight[Memo], f: Fighter, d: Order) -> bool:
        """C2-21: a readied weapon that has not struck stays ready while its foe stands and has neither arrived nor
        come to blows with it: closing without charging brings "the exchange of blows ... as normal in the next
        phase"."""
        foe = fight.state.fighters.get(d.melee or d.missile or "")
        if not self.opt.ready_maintained or foe is None or not foe.active or f.name in foe.engaged or f.routed:
            return False
        arrived = foe.current is not None and foe.current.melee == f.name and foe.remaining == 0
        return not arrived

    @staticmethod
    def _still(fight: Fight[Memo], f: Fighter, d: Order | None, tick: Tick, at: str, how: str) -> Order | None:
        """``d``, held over for ``f``, if the one validator still takes it now; else None, the referee told why in the
        seed's words (its target fell: G-05) before ``f`` declares anew."""
        if d is None:
            return None
        why = fight.why_not(f, d)
        if why is None:
            return d
        fight.emit(Impossible, tick, at, f.name, why=f"{how}: {describe_declaration(d, f)}: {why}" if fight.explain
                   else None, detail=f"the {how} declaration lapses" if fight.explain else None, target=d.target,
                   ends=True)
        return None

    @staticmethod
    def _touch(fight: Fight[Memo], f: Fighter, b: Book) -> Order | None:
        """C2-10: the touch of a spell cast at someone, owed once the casting completed: "the actual touch may be
        attempted during the attack portion of the next phase or later", so it is the caster's action then (while
        the one touched is in the fight, and unless the referee says otherwise)."""
        if b.touch_at is None or b.charged is None or not charged(f, b, b.charged[0]):
            return None
        t = fight.state.fighters.get(b.touch_at)
        if t is None or not t.active:
            b.touch_at = None
            return None
        cast = b.casting_decl  # the casting's own dice (a ``heal`` rolled at the table) go with its touch
        dice = cast.source.dice if cast is not None and cast.cast == b.charged[0] else None
        return _touch_order(b.touch_at, b.charged[0], dice)

    @staticmethod
    def _continuing(fight: Fight[Memo], f: Fighter, decl: Order, tick: Tick, at: str, note: str) -> None:
        fight.declare(f, tick, at, resume=decl, note=note)
        return None

    def keeps(self, decl: Order) -> bool:
        """A player states its attack once, not at every phase (P1-08, with the referee's word to change it); a
        readied weapon (C2-21: "a ready state MAY be maintained", not must) is asked about at each phase."""
        return decl.action in ("melee", "missile") and decl.extra.get("set") is not True

    # -- what the seed refuses outright ------------------------------------------------------------------
    def refusal(self, fight: Fight[Memo], f: Fighter, decl: Order) -> str | None:
        """What would only be refused or cancelled if declared now (a forced delay, such as a second casting in a
        round, is allowed: it waits): a charge below twice base MV (C2-20), a plain move away from melee (C2-17), a
        touch with no charged spell to deliver (C2-10)."""
        b = f.memo if isinstance(f.memo, Book) else None  # no book yet: it stands, nothing charged
        action = decl.action
        if action == "melee" and decl.charge:
            pace = decl.extra.get("pace")
            now = b.pace if b is not None else 0
            want = pace if isinstance(pace, int) and not isinstance(pace, bool) else max(now, 1)
            if want < 2:
                return (f"a charge runs at least twice base MV (C2-20): {f.name} is at x{now}; give pace: 2 or more "
                        "(it accelerates by up to 2 a phase, C2-19)")
        elif action == "move" and f.engaged and (decl.mode or "full") not in ("withdraw", "flee"):
            return (f"{f.name} is engaged with {', '.join(sorted(f.engaged))}: it may only withdraw, flee or fight "
                    "(C2-17)")
        touch = decl.extra.get("touch")
        if action == "melee" and touch is not None and (b is None or not charged(f, b, str(touch))):
            return f"{f.name} has no charged {touch} to deliver: cast it first, then touch (C2-10)"
        if action == "melee" and touch is not None:
            spell, t = f.spells.get(str(touch)), fight.state.fighters.get(decl.melee or "")
            if spell is not None and spell.heal is not None and t is not None and t.side != f.side:
                return (f"{spell.name} heals: its touch goes to an ally or to {f.name} itself, not to {t.name} of "
                        f"{t.side} (C2-10)")
        return None

    def resolve_own(self, fight: Fight[Memo], step: Step) -> None:
        """C2-10: the touch of a healing spell (``Combat2Attacks.heal_touch``)."""
        self.attacks.heal_touch(fight, step)

    # -- scheduling ----------------------------------------------------------------------------------------
    def _schedule(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, period: int) -> None:
        b = book(fight, f)
        action = d.action
        if action != "move" and not (action == "melee" and (d.charge or f.remaining > 0)):
            b.pace = 0  # a combatant doing something else has stopped (C2-19, simplified)
        if action in ("melee", "missile"):
            if d.charge:
                self.movement.charge(fight, f, d, rnd, phase, period)
            elif action == "melee" and f.remaining > 0:
                self.movement.close(fight, f, d, rnd, phase, period)
            else:
                self.attacks.attack(fight, f, d, rnd, phase, period)
        elif action == "cast":
            self.casting.cast(fight, f, d, rnd, phase, period)
        elif action == "move":
            self.movement.move(fight, f, d, rnd, phase, period)
        elif action in ("misc", "wait"):
            what = d.misc if action == "misc" else (d.wait if isinstance(d.wait, str) else "")
            if action == "misc" and "component" in (d.misc or "").lower():
                b.used_m = False
            fight.push(Step((rnd, phase, 7, 1), f, action, self.words.at_move(rnd, phase),
                            "miscellaneous actions come after the phase's attacks and spells, with the movement "
                            "(P1-10, C2-24)", decl=d, note=str(what or "")))

    # -- load-time checks ----------------------------------------------------------------------------------
    @classmethod
    def part_dice(cls, spec: Combatant, decl: Declaration, part: int) -> tuple[Dice | None, int]:
        """C2-07: each part of a routine throws its own weapon's dice (a troll's bite its bite's, not its talon's)."""
        routine = decl.extra.get("routine")
        if isinstance(routine, list) and part < len(routine):
            weapon = next((w for w in spec.weapons if w.name == routine[part]), None)
            if weapon is not None:
                return weapon.damage, 1
        return cls.attack_dice(spec, decl)

    @classmethod
    def attack_dice(cls, spec: Combatant, decl: Declaration) -> tuple[Dice | None, int]:
        """C2-10: a touch throws its spell's damage."""
        touch = decl.extra.get("touch")
        if touch is not None:
            spell = next((s for s in spec.spells if s.name == touch), None)
            if spell is not None and spell.damage is not None:
                return spell.damage, 1
        return super().attack_dice(spec, decl)

    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:  # noqa: C901
        specs, decls = planned(loaded)
        for actor, spec, d, loc in decls:
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
            if retarget is not None and (not isinstance(retarget, str) or retarget not in specs):
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


def _touch_order(target: str, spell: str, dice: Any = None) -> Order:
    """The touch of ``spell`` to ``target`` (C2-10), as a declaration, with the dice given for its casting."""
    entry: dict[str, Any] = {"melee": target, "touch": spell}
    if dice is not None:
        entry["dice"] = dice
    return order_of(Declaration.model_validate(entry))


class Combat2Rules(Rule):
    """Combat II's step rules: C2-08, C2-12 and C2-20 on an attack, refusals (C2-04 retargeting, C2-21 covering
    fire), C2-18 a fleer's free attacks, C2-13 a caster's disruption. Both phase systems use them."""

    def __init__(self, ruleset: Combat2Phase1) -> None:
        self.ruleset = ruleset
        self.opt = ruleset.opt

    def mods(self, fight: Fight[Memo], step: Step, target: Fighter, mods: AttackMods) -> None:
        period = fight.period
        if "charge" in step.tags and self.opt.charge_bonus:
            mods.add("hit", int(self.opt.charge_bonus), "charging, C2-20")
        if "polearm" in step.tags:
            mods.dice_times = 2
        tdecl = target.declared
        dex = dex_defense_adjustment(agility(fight, target)[0])  # C2X-01: AGI gives the AC bonus
        if self.ruleset.attacks.defenseless(fight, target, period):
            mods.add("ac", 4, f"{target.name} stationary and defenseless, C2-08")
            if dex < 0:
                mods.add("ac", -dex, "no DEX bonus, C2-08")
        elif target.casting is not None and dex < 0:
            mods.add("ac", -dex, "casting: no DEX bonus, C2-12")
        elif tdecl is not None and tdecl.charge and tdecl.action == "melee":
            if dex < 0:
                mods.add("ac", -dex, "charging: no DEX bonus, C2-20")
            if target.mounted:
                mods.add("ac", -2, "mounted charger, C2-20")

    def refuse(self, fight: Fight[Memo], step: Step) -> str | None:
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
        if "counter" in step.tags and step.target is not None:  # C2-20: an unready defender's answer to a charge
            rnd, phase = step.tick[0], step.tick[1]
            return self.ruleset.attacks.answer(fight, a, fight.state.fighters[step.target], rnd, phase,
                                               fight.period)
        if step.kind in ("melee", "missile") and step.target is not None and step.decl is not None:
            target = fight.state.fighters[step.target]
            if not target.active and not step.tags & {"counter", "set"}:
                return self.ruleset.attacks.retarget(fight, step, target)
        return None

    def free_attacks(self, fight: Fight[Memo], step: Step) -> list[FreeAttack]:
        """C2-18: a fleer gives every engaged foe a free attack, unless it outruns one or an ally interposes."""
        if step.kind != "move" or step.mode != "flee":
            return []
        mover = step.actor
        state = fight.state
        period = fight.period
        out: list[FreeAttack] = []
        for name in sorted(mover.engaged, key=fight.order):
            foe = state.fighters[name]
            if not foe.active:
                continue
            if any(g is not mover and g.active and g.declared is not None and g.declared.melee == name
                   for g in state.sides[mover.side]):
                continue  # an ally interposes
            fb = book(fight, foe)
            if book(fight, mover).track == "winner" and fb.attacked_phase == period and foe.mv <= mover.mv:
                continue  # the winner outruns a foe that already struck this phase
            out.append((foe, foe.weapon(None), f"free attack: {mover.name} flees from melee (C2-18)"))
        return out

    def resolved(self, fight: Fight[Memo], step: Step) -> None:
        """A blow that never came because its maker could not strike when its half-segment came (asleep, held,
        stunned, routed: G-07, G-09) was not made: it is not the round's attack (P1-07, P1-13), and under Phase
        System II "in the event of an unexpected or even voluntary phase delay, the sequence starts over with the
        next attack" (P2-07)."""
        if (step.failed and step.kind in ("melee", "missile") and step.index == 0 and step.actor.active
                and not step.tags & _NOT_SCHEDULED and unable(step.actor, step.tick, attack=True) is not None):
            self.ruleset.attacks.unmade(book(fight, step.actor))

    def interrupt(self, fight: Fight[Memo], caster: Fighter, step: Step) -> str | None:
        """C2-13 a caster damaged while casting loses the spell; but a blow on the very half-segment it completes
        cannot preempt it (C2-06, P1-09)."""
        if step.tick[:3] == book(fight, caster).completes[:3]:
            return KEPT
        return RUINED
