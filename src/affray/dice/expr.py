"""Dice expressions: parsed by d20, rolled by our own roller (never d20's global RNG).

d20 builds its grammar when imported (a fifth of the command line's start-up): the plain sums every file
writes (``1d8``, ``2d4+1``, ``3``) are read here, and d20 is imported only for anything else."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

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


#: A plain sum: terms ``NdS`` (N and S from 1) or ``N``, joined by ``+`` or ``-``, no dice subtracted, no spaces.
_PLAIN = re.compile(r"(?:[1-9]\d{0,5}d[1-9]\d{0,5}|\d{1,6})(?:\+[1-9]\d{0,5}d[1-9]\d{0,5}|[+-]\d{1,6})*")
_TERM = re.compile(r"([+-]?)(\d+)(?:d(\d+))?")


def _plain(text: str) -> tuple[list[tuple[int, int]], int] | None:
    """The dice groups and constant of a plain sum, as d20 reads it; None for anything else."""
    if _PLAIN.fullmatch(text) is None:
        return None
    groups: list[tuple[int, int]] = []
    bonus = 0
    for sign, number, sides in _TERM.findall(text):
        if sides:
            groups.append((int(number), int(sides)))
        else:
            bonus += -int(number) if sign == "-" else int(number)
    return groups, bonus


@lru_cache(maxsize=4096)
def _parse(text: str) -> DiceExpr:
    """An expression's text parsed once (DiceExpr is immutable); a bad one raises each time."""
    plain = _plain(text)
    groups, bonus = plain if plain is not None else _parse_d20(text)
    return _check(DiceExpr(tuple(groups), bonus, text), text)


def _parse_d20(text: str) -> tuple[list[tuple[int, int]], int]:
    """Any other expression, as d20 parses it."""
    import d20
    from d20 import diceast

    try:
        tree = d20.parse(text)
    except d20.RollSyntaxError as exc:
        raise ValueError(f"not a dice expression: {text!r} ({_HINT})") from exc
    groups: list[tuple[int, int]] = []
    bonus = 0

    def walk(node: object, sign: int) -> None:
        nonlocal bonus
        if isinstance(node, diceast.Expression):
            walk(node.roll, sign)
        elif isinstance(node, (diceast.AnnotatedNumber, diceast.Parenthetical)):
            walk(node.value, sign)
        elif isinstance(node, diceast.Literal) and isinstance(node.value, int):
            bonus += sign * node.value
        elif isinstance(node, diceast.Dice) and type(node) is diceast.Dice and sign > 0:
            if node.num < 1 or not isinstance(node.size, int) or node.size < 1:
                raise ValueError(f"not a dice expression: {text!r} ({_HINT})")
            groups.append((int(node.num), int(node.size)))
        elif isinstance(node, diceast.BinOp) and node.op in ("+", "-"):
            walk(node.left, sign)
            walk(node.right, sign if node.op == "+" else -sign)
        elif isinstance(node, diceast.UnOp) and node.op in ("+", "-"):
            walk(node.value, sign if node.op == "+" else -sign)
        else:
            raise ValueError(f"unsupported dice expression: {text!r} ({_HINT})")

    walk(tree, 1)
    return groups, bonus


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
