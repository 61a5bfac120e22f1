"""The engine: typed events, the state they fold to, the fight and its loop, the chain of step rules, and the
ruleset base class."""

from affray.engine.events import Event, Tick
from affray.engine.fight import Fight, Result
from affray.engine.options import BaseOptions, OptionInfo
from affray.engine.resolve import Engine
from affray.engine.rules import Chain, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import Fighter, FightState, FinalState
from affray.engine.step import AttackMods, Step

__all__ = ["AttackMods", "BaseOptions", "Chain", "Engine", "Event", "Fight", "FightState", "Fighter", "FinalState",
           "OptionInfo", "Result", "Rule", "Ruleset", "Step", "Tick"]
