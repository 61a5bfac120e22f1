"""An extension: a supplement of optional rules that a package adds to every ruleset (CONTRACT.md "Extensions").

Like a boardgame.io plug-in it brings its own data: its options (a frozen dataclass of ``option()`` fields, written
``NAME.option`` in a file or after ``--set``), its step rules (``Rule`` objects, made afresh for each fight: what
the fight's state of its own holds lives on them, rebuilt with the fight on undo and resume, which replay its
recorded inputs and dice), the conditions its rules set (``conditions``, what each does: G-09's data), spell pools
(``pools``) and checks of the file (``check``). The engine imports none of it: ``affray.plugins.assemble`` puts an
extension's rules in a fight's chain, before the ruleset's own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from affray.engine.conditions import CONDITIONS, Effect
from affray.engine.options import option_info, parse_options
from affray.errors import OptionError

if TYPE_CHECKING:
    from affray.engine.rules import Rule
    from affray.engine.ruleset import Ruleset
    from affray.engine.state import PoolFactory
    from affray.errors import Problem
    from affray.io.load import Loaded

__all__ = ["Extension", "NoOptions", "register_conditions"]


@dataclass(frozen=True)
class NoOptions:
    """The options of an extension that has none."""


class Extension:
    """Base of every extension. ``name`` is its namespace: its options are ``name.option`` (an extension that
    sets ``bare_options`` also reads its options' names alone, as files written before it was one do)."""

    name: ClassVar[str]
    title: ClassVar[str] = ""
    #: The RULES.md (or the package's own) rule IDs it implements, e.g. "C2X".
    rule_ids: ClassVar[str] = ""
    #: Its options: a frozen dataclass whose fields are ``engine.options.option(...)``.
    Options: ClassVar[type[Any]] = NoOptions
    #: Whether a file may name its options without the namespace (Combat II's supplement: files written before).
    bare_options: ClassVar[bool] = False
    #: The conditions its rules set, with what each does (added to G-09's table when the extension is loaded).
    conditions: ClassVar[Mapping[str, Effect]] = {}

    def __init__(self, opt: Any, ruleset: Ruleset[Any, Any]) -> None:
        self.opt = opt
        self.ruleset = ruleset

    @classmethod
    def parse(cls, given: Mapping[str, Any]) -> Any:
        """Its options from ``given`` (names without the namespace) over the defaults, each checked."""
        return parse_options(cls.Options, given, cls.name)

    @classmethod
    def option_names(cls) -> list[str]:
        return [i.name for i in option_info(cls.Options)]

    def rules(self) -> list[Rule]:
        """The step rules it gives one fight (asked once a fight: per-fight state lives on them)."""
        return []

    def pools(self) -> PoolFactory | None:
        """Spell pools in place of memorised copies (Combat II's mana), or None."""
        return None

    @classmethod
    def check(cls, loaded: Loaded, opt: Any) -> Iterator[Problem]:
        """Its checks of a file, with the file's options for it."""
        return iter(())


def register_conditions(cls: type[Extension]) -> None:
    """Add ``cls``'s conditions to G-09's table; a name another already gives differently is an OptionError."""
    for name, effect in cls.conditions.items():
        known = CONDITIONS.get(name)
        if known is not None and known != effect:
            raise OptionError(f"condition {name!r} is already given (by affray or another extension)")
        CONDITIONS[name] = effect
