"""The yardstick of bench_fights.py: a tiny fight loop that knows no rules, in plain Python.

Two sides trade blows (a d20 against a target number, a d8 of damage) until one side is down. It does what any
fight loop does (dice from a seeded generator, a list of the living per side, a target chosen, hit points
lowered) and nothing of a ruleset. Timed in the same run as the engine, the ratio between them stays the same
on a busy or a quiet machine, where fights per second alone do not.
"""

from __future__ import annotations

from random import Random


def reference_fight(seed: int, a: int = 4, b: int = 6) -> int:
    """One fight of ``a`` fighters (8 hp, hit on 11+) against ``b`` orcs (5 hp, hit on 12+); the rounds it lasted."""
    random = Random(seed).random
    sides = [[8] * a, [5] * b]
    hit = (0.5, 0.45)  # d20 >= 11 and >= 12
    rounds = 0
    while sides[0] and sides[1]:
        rounds += 1
        for i in (0, 1):
            foes = sides[1 - i]
            for _ in range(len(sides[i])):
                if not foes:
                    break
                j = int(random() * len(foes))
                if random() < hit[i]:
                    foes[j] -= int(random() * 8) + 1
                    if foes[j] <= 0:
                        foes[j] = foes[-1]
                        foes.pop()
    return rounds
