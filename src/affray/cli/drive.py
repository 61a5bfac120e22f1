"""``affray drive``: the table's session as JSON lines, one object per line on stdout, one read per line from stdin.

Written:

- ``{"event": {...}}``: as an element of ``affray run --json``'s events;
- ``{"ask": {...}}``: a declaration wanted (with what it may choose and its ``suggestion``), or a die;
- ``{"end": {"winner": ..., "combatants": {...}}}``;
- ``{"error": TEXT, "id": N}``: the line read was not a valid answer; the question stands and is sent again;
- ``{"undone": {"events": N}}``: after an undo or a back, the fight is back to its first N events;
- ``{"done": TEXT}``: what a ``do`` line did;
- ``{"party": TEXT}``: after the end of a fight driven with ``--party``, what was written into the party file (or
  why nothing was);
- ``{"pause": {"why": ..., "at": ..., "events": N}}``: where the console would pause, once the caller asked to go
  a step or a round at a time (``{"do": "say", "text": "round"}``);
- ``{"diverged": {...}}``, resuming a fight this affray rebuilds otherwise than it was saved (the rules changed):
  ``at`` (the first event that differs), ``saved`` and ``now`` (that event as saved and as rebuilt, or null),
  ``why`` (the saved input the rebuild cannot take, if any), ``agreed`` (the events kept by ``--new-rules``),
  ``events`` (saved), ``saved_by``, ``affray``; then exit 2, nothing changed. With ``--new-rules``,
  ``{"branched": {...}}`` (the same fields) first: the fight goes on from its first ``agreed`` events.

Read: ``{"id": N, "declare": ENTRY}`` (with ``"also": [NAME, ...]``: the same entry for those combatants'
questions of this declaration point), ``{"id": N, "die": V}``, ``{"id": N, "roll": true}``, ``{"id": N,
"outcome": {...}}``; ``{"do": "undo", "n": K}``, ``{"do": "back"}`` (the last answer or command taken back),
``{"do": "say", "text": LINE}`` (a line as typed at the console: ``kobolds: melee Aldric``, ``round``...),
``{"do": "command", "text": "damage Orc 1 3"}``, ``{"do": "declare", "who": SIDE or NAME, "mode":
"ask"|"auto"|"repeat"}``, ``{"do": "dice", "who": WHO, "mode": "ask"|"roll"}``, ``{"do": "save-party"}`` (the
party file written now, with what the fight has left: ``--party``), ``{"do": "place", "who": NAME, "at": [X, Y]}`` (the
referee places a combatant), ``{"do": "quit"}``. With a database every
event and input is journalled as in ``affray play``.

Both ways the lines are UTF-8, whatever the locale. A line read is bounded (``affray.io.lines``): longer than
``MAX_DRIVE_LINE`` bytes, not UTF-8, nested deeper than ``MAX_DEPTH``, or carrying a lone surrogate (``"\\ud800"``),
it is refused with an error line and the conversation goes on; an id is a whole number (not ``true``, not ``1.0``).
"""

from __future__ import annotations

import json
from typing import Any, BinaryIO

from pydantic import ValidationError

from affray.drive import ROLL, DeclareQuestion, DieQuestion, End
from affray.io.lines import Refused, lone_surrogate, read_line
from affray.limits import MAX_DEPTH, MAX_DRIVE_LINE
from affray.model.encounter import Outcome
from affray.table import Divergence, Pause, Reply, Session, Shown, plain_event
from affray.table.store import affray_version

__all__ = ["converse", "divergence", "write"]


def divergence(what: str, d: Divergence) -> dict[str, Any]:
    """``{"diverged": ...}`` or ``{"branched": ...}``: where a saved fight and this affray's rebuild of it part."""
    return {what: {"game": d.game.id, "at": d.at, "agreed": d.agreed, "events": d.events, "saved": d.saved,
                   "now": d.now, "why": d.why or None, "saved_by": d.saved_by, "affray": affray_version()}}


def write(out: BinaryIO, obj: dict[str, Any]) -> None:
    """One line of JSON in UTF-8 (a lone surrogate, should one come, as JSON's own escape ``\\udXXX``)."""
    out.write((json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace"))
    out.flush()


def converse(session: Session, inp: BinaryIO, out: BinaryIO) -> None:
    """Run the conversation until the input ends or says quit."""
    while True:
        item = session.next()
        if isinstance(item, Pause):
            if item.why == "start" or session.mode == "run":  # a conversation runs from one question to the next,
                session.go("run")  # unless its caller asked to go a step or a round at a time
                continue
            write(out, _pause(session, item))
            if not _read(session, item, inp, out):
                return
            continue
        if isinstance(item, Shown):
            write(out, {"event": plain_event(item.event, item.seq)})
            continue
        if isinstance(item, End):
            final = item.result.final
            write(out, {"end": {"winner": final.winner, "combatants": final.combatants}})
            if session.party is not None and session.party_saved is not None:
                write(out, {"party": session.party_saved})
        else:
            write(out, {"ask": item.to_json()})
        if not _read(session, item, inp, out):
            return


def _read(session: Session, item: object, inp: BinaryIO, out: BinaryIO) -> bool:  # noqa: C901
    """Read lines until the question is answered (or, at the end, an undo): False to stop."""
    q = item if isinstance(item, (DeclareQuestion, DieQuestion)) else None
    qid = q.id if q is not None else None
    while True:
        line = read_line(inp, MAX_DRIVE_LINE)
        if line is None:
            return False
        if isinstance(line, Refused):
            _refuse(out, line.why, qid, item)
            continue
        if not line.strip():
            continue
        data = _parse(line)
        if isinstance(data, str):
            _refuse(out, data, qid, item)
            continue
        do = data.get("do")
        if do == "quit":
            return False
        if do is not None:
            reply = _do(session, do, data)
            if reply is None:
                _refuse(out, f"unknown do {do!r}: undo, back, say, command, declare, dice, save-party or quit", qid,
                        item)
                continue
            for e in reply.events:
                write(out, {"event": plain_event(e.event, e.seq)})
            if not reply.ok:
                _refuse(out, reply.text, qid, item)
                continue
            if do in ("undo", "back"):
                write(out, {"undone": {"events": len(session.fight.events)}})
                return True
            if reply.text:
                write(out, {"done": reply.text})
            if reply.go or (q is not None and session.pending is not q):  # it moved the fight on, or answered
                return True
            if isinstance(item, Pause):  # still paused: where, again
                write(out, _pause(session, item))
            _resend(out, item)
            continue
        error = _answer(session, q, data)
        if error is None:
            return True
        _refuse(out, error, qid, item)


def _parse(line: str) -> dict[str, Any] | str:
    """The JSON object a line carries, or what is wrong with it (its nesting is counted before it is parsed)."""
    if _too_deep(line):
        return f"a line nested more than {MAX_DEPTH} deep (limit): each line is one JSON object, an answer or a do"
    try:
        data = json.loads(line)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return "each line is one JSON object"
    surrogate = lone_surrogate(data)
    return surrogate if surrogate is not None else data


def _too_deep(line: str) -> bool:  # noqa: C901
    """Whether the lists and objects of a JSON line nest deeper than ``MAX_DEPTH`` (brackets in strings not
    counted): one pass over the line, which a parser would recurse into."""
    if line.count("[") + line.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    inside = escaped = False
    for c in line:
        if inside:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                inside = False
        elif c == '"':
            inside = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif c in "]}":
            depth -= 1
    return False


def _pause(session: Session, p: Pause) -> dict[str, Any]:
    return {"pause": {"why": p.why, "at": session.fight.now_at, "events": len(session.fight.events)}}


def _do(session: Session, do: object, data: dict[str, Any]) -> Reply | None:  # noqa: C901
    """A ``do`` line carried out; None when it is none of them."""
    if do == "undo":
        n = data.get("n", 1)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            return Reply("undo takes n, a whole number of events of 1 or more", ok=False)
        return session.undo(n)
    if do == "back":
        return session.back()
    if do == "say":  # a line as typed at the console: a group's declaration, NAME: ENTRY, round, a command...
        text = data.get("text")
        return session.say(text) if isinstance(text, str) else Reply("say takes text: a line as typed at the "
                                                                      "console", ok=False)
    if do == "command":
        return session.command(str(data.get("text", "")))
    if do == "declare":
        who, mode = data.get("who"), data.get("mode")
        if not isinstance(who, str) or not isinstance(mode, str):
            return Reply("declare takes who (a side or a combatant) and mode (ask, auto or repeat)", ok=False)
        return session.command(f"declare {who} {mode}")
    if do == "place":  # the referee places a combatant (CONTRACT "Where everyone stands"), journalled as the command
        who, at = data.get("who"), data.get("at")
        if (not isinstance(who, str) or not isinstance(at, list) or len(at) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
            return Reply("place takes who (a combatant) and at ([x, y], whole feet)", ok=False)
        return session.command(f"place {who} {at[0]} {at[1]}")
    if do == "save-party":  # the party file written now with what the fight has left (CONTRACT.md)
        return session.save_party()
    if do == "dice":
        who, mode = data.get("who", "all"), data.get("mode")
        if not isinstance(who, str) or not isinstance(mode, str):
            return Reply("dice takes who (a side, a die's purpose or all) and mode (ask or roll)", ok=False)
        return session.dice([who, mode])
    return None


def _answer(session: Session, q: DeclareQuestion | DieQuestion | None, data: dict[str, Any]) -> str | None:  # noqa: C901
    """Give the answer a line carries; None once accepted, else what is wrong."""
    if q is None:
        return "no question is waiting: send {\"do\": \"undo\", \"n\": K} or {\"do\": \"quit\"}"
    qid = data.get("id")
    if type(qid) is not int or qid != q.id:  # true and 1.0 equal 1 in Python, but are not an id
        return f"the question waiting is {q.id}: answer it with \"id\": {q.id} (a whole number)"
    given = [k for k in ("declare", "die", "roll", "outcome") if k in data]
    if len(given) != 1:
        return "give one of declare, die, roll or outcome"
    key = given[0]
    if isinstance(q, DeclareQuestion) and key != "declare":
        return "a declaration is wanted: {\"id\": N, \"declare\": {\"melee\": \"Orc 1\"}}"
    if isinstance(q, DieQuestion) and key == "declare":
        return "a die is wanted: {\"id\": N, \"die\": V} or {\"id\": N, \"roll\": true}"
    value: object = data[key]
    if key == "roll":
        if value is not True:
            return "roll takes true"
        value = ROLL
    elif key == "outcome":
        try:
            value = Outcome.model_validate(value)
        except ValidationError:
            return "an outcome is {\"hit\": true, \"damage\": N} or {\"hit\": false}"
    also = data.get("also", [])
    if not isinstance(also, list) or not all(isinstance(n, str) for n in also):
        return "also takes a list of names (combatants or sides)"
    reply = session.answer(value, also)
    return None if reply.ok else reply.text


def _refuse(out: BinaryIO, text: str, qid: int | None, item: object) -> None:
    write(out, {"error": text, "id": qid})
    _resend(out, item)


def _resend(out: BinaryIO, item: object) -> None:
    if isinstance(item, (DeclareQuestion, DieQuestion)):
        write(out, {"ask": item.to_json()})
