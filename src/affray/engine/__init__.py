"""The engine: events, state, the ruleset base class and the loop that resolves steps in tick order."""

from affray.engine.engine import Fight, Result
from affray.engine.events import Event, Tick
from affray.engine.ruleset import AttackMods, Option, Ruleset, Step
from affray.engine.state import Fighter, FightState, FinalState

__all__ = ["AttackMods", "Event", "Fight", "FightState", "Fighter", "FinalState", "Option", "Result",
           "Ruleset", "Step", "Tick"]
