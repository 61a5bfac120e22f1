"""Dice expressions, read by a small parser of our own and rolled by our own roller (``dice/roller.py``).

What a file may write: a sum of dice ``NdS`` (``N`` left out means one: ``d6``) and whole numbers, joined by
``+`` and ``-``, with spaces between terms, parentheses and ``[annotations]`` (``1d8+1 [slashing]``) allowed:
the notation the d20 package read for affray before 0.2, less what affray never rolled (keep/drop, rerolls,
exploding dice, ``*``, ``/``, comparisons, decimals, ``d%``). Dice are never subtracted (``10-1d4`` is refused).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NoReturn

from affray.limits import MAX_DICE, MAX_DICE_TEXT, MAX_DIE_SIDES, MAX_MODIFIER

__all__ = ["DiceExpr", "parse_dice"]


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A sum of dice groups and a constant: ``2d4+1`` is ``groups=((2, 4),), bonus=1``."""

    groups: tuple[tuple[int, int], ...]
    bonus: int
    text: str

    @property
    def dice_min(self) -> int:
        return sum(n for n, _ in self.groups)

    @property
    def dice_max(self) -> int:
        return sum(n * s for n, s in self.groups)

    def __str__(self) -> str:
        return self.text


_HINT = "use dice notation such as 1d8, 2d4+1, 1d6-1 or a plain number"


def parse_dice(value: object) -> DiceExpr:
    """Parse ``1d8``, ``2d4+1`` or a number; raise ValueError with a hint otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"not a dice expression: {value!r} ({_HINT})")
    text = str(value).strip()
    if len(text) > MAX_DICE_TEXT:
        raise ValueError(f"dice expression of {len(text)} characters: at most {MAX_DICE_TEXT} (limit; {_HINT})")
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> DiceExpr:
    """An expression's text parsed once (DiceExpr is immutable); a bad one raises each time."""
    reader = _Reader(text)
    reader.sum(1)
    reader.space()
    if reader.at < len(text):
        reader.fail()
    return _check(DiceExpr(tuple(reader.groups), reader.bonus, text), text)


_SPACE = " \t\f\r\n"


class _Reader:
    """A recursive-descent reading of one expression (at most ``MAX_DICE_TEXT`` characters, so as deep):

    ``sum := term (("+" | "-") term)*``, ``term := ("+" | "-")* (dice | number | "(" sum ")") annotation*``,
    ``dice := number? "d" number``, ``annotation := "[" any but "]" "]"``; spaces between any two of them.
    Each term is added to ``groups`` (dice) or ``bonus`` (a number) with the sign it has in the whole sum."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.groups: list[tuple[int, int]] = []
        self.bonus = 0

    def fail(self, unsupported: bool = False) -> NoReturn:
        what = "unsupported dice expression" if unsupported else "not a dice expression"
        raise ValueError(f"{what}: {self.text!r} ({_HINT})")

    def space(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in _SPACE:
            self.at += 1

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def number(self) -> int | None:
        start = self.at
        while self.at < len(self.text) and self.text[self.at] in "0123456789":
            self.at += 1
        return int(self.text[start:self.at]) if self.at > start else None

    def sum(self, sign: int) -> None:
        self.space()
        self.term(sign)
        self.space()
        while self.peek() in ("+", "-") and self.peek():
            op = self.text[self.at]
            self.at += 1
            self.space()
            self.term(sign if op == "+" else -sign)
            self.space()

    def term(self, sign: int) -> None:
        while self.peek() in ("+", "-") and self.peek():  # unary signs
            sign = sign if self.text[self.at] == "+" else -sign
            self.at += 1
            self.space()
        if self.peek() == "(":
            self.at += 1
            self.sum(sign)
            if self.peek() != ")":
                self.fail()
            self.at += 1
        else:
            count = self.number()
            if self.peek() == "d":
                self.at += 1
                sides = self.number()
                if sides is None:
                    self.fail()
                n = 1 if count is None else count
                if sign < 0 or n < 1 or sides < 1:  # dice are never subtracted; no zero dice, no zero faces
                    self.fail(unsupported=True)
                self.groups.append((n, sides))
            elif count is None:
                self.fail()
            else:
                self.bonus += sign * count
        self.space()
        while self.peek() == "[":  # an annotation ("[fire]"): read and left aside
            end = self.text.find("]", self.at)
            if end < 0 or "\n" in self.text[self.at:end]:
                self.fail()
            self.at = end + 1
            self.space()


def _check(expr: DiceExpr, text: str) -> DiceExpr:
    if expr.dice_min > MAX_DICE:
        raise ValueError(f"{text!r} throws {expr.dice_min} dice: at most {MAX_DICE} (limit)")
    if any(sides > MAX_DIE_SIDES for _n, sides in expr.groups):
        raise ValueError(f"{text!r}: a die has at most {MAX_DIE_SIDES} faces (limit)")
    if abs(expr.bonus) > MAX_MODIFIER:
        raise ValueError(f"{text!r}: the constant is {expr.bonus}; at most {MAX_MODIFIER} either way (limit)")
    if expr.dice_max + expr.bonus < 1:
        raise ValueError(f"{text!r} can never roll above 0 ({_HINT})")
    return expr
