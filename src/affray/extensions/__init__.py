"""Rulesets, supplements and policies from installed packages, affray's own among them (CONTRACT.md "Extensions").

``find_ruleset``/``ruleset_ids``/``rulesets`` and ``extensions`` read the entry point groups (``registry``);
``Extension`` is what a supplement subclasses (``base``); the options helpers below route a file's options: a
name ``NS.option`` to the extension ``NS``, a bare name to the ruleset (or to an extension that reads bare names,
as Combat II's supplement does for the files written before it was one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from affray.errors import OptionError, UnknownRulesetError
from affray.extensions.registry import Entry, ExtensionError, entries, entry, forget

if TYPE_CHECKING:
    from affray.engine.ruleset import Ruleset
    from affray.extensions.base import Extension

__all__ = ["Entry", "Extension", "ExtensionError", "NoOptions", "bind", "broken", "check_option", "entries", "entry",
           "extension_options", "extensions",
           "find_extension", "find_ruleset", "forget", "normalise", "option_names", "ruleset_ids", "rulesets"]


def ruleset_ids() -> list[str]:
    """Every installed ruleset's id, affray's own first (without importing any; the broken included)."""
    ids = [name for name, e in entries("ruleset").items() if e.error is None or name == e.name]
    if not ids:
        raise ExtensionError("no ruleset is registered: affray's own entry points are missing (reinstall affray: "
                             "pip install -e . or pip install affray)")
    return ids


def find_ruleset(name: str) -> type[Ruleset[Any, Any]]:
    """The ruleset with id ``name``: UnknownRulesetError lists the valid ids; ExtensionError names the package of
    one that is installed but cannot be loaded."""
    e = entry("ruleset", name)
    if e is None:
        raise UnknownRulesetError(name, ruleset_ids())
    found: type[Ruleset[Any, Any]] = e.load()
    return found


def _loaded(kind: str) -> list[Any]:
    """Every entry of ``kind`` that loads, affray's own first; the broken are left out (``broken()`` names them)."""
    out = []
    for e in entries(kind).values():
        try:
            out.append(e.load())
        except ExtensionError:
            continue
    return out


def rulesets() -> list[type[Ruleset[Any, Any]]]:
    """Every ruleset that loads, affray's own first; the broken are left out (``broken()`` names them)."""
    return _loaded("ruleset")


def extensions() -> list[type[Extension]]:
    """Every extension that loads, affray's own first; the broken are left out (``broken()`` names them)."""
    return _loaded("extension")


def find_extension(name: str) -> type[Extension]:
    e = entry("extension", name)
    if e is None:
        valid = ", ".join(entries("extension")) or "none installed"
        raise OptionError(f"no extension {name!r} is installed (extensions: {valid})")
    found: type[Extension] = e.load()
    return found


def broken() -> list[Entry]:
    """Every entry point that cannot be used, with its error (each tried once)."""
    out = []
    for kind in ("ruleset", "extension"):
        for e in entries(kind).values():
            try:
                e.load()
            except ExtensionError:
                out.append(e)
    return out


def normalise(options: Mapping[str, Any], ruleset: type[Ruleset[Any, Any]]) -> dict[str, Any]:
    """``options`` with each bare name that only an extension reading bare names has written ``NS.name`` (a file
    from before that supplement was one)."""
    from affray.engine.options import option_info

    own = {i.name for i in option_info(ruleset.Options)}
    out: dict[str, Any] = {}
    for name, value in options.items():
        if "." not in name and name not in own:
            owner = next((x for x in extensions() if x.bare_options and name in x.option_names()), None)
            if owner is not None:
                out[f"{owner.name}.{name}"] = value
                continue
        out[name] = value
    return out


def check_option(ruleset: type[Ruleset[Any, Any]], name: str, value: Any) -> Any:
    """``value`` for option ``name`` (``NS.option``: extension NS's), or OptionError naming what is allowed."""
    from affray.engine.options import check_option as check_own
    from affray.engine.options import option_info

    ns, dot, rest = name.partition(".")
    if not dot:
        [full] = normalise({name: value}, ruleset)
        if full == name:
            if name not in {i.name for i in option_info(ruleset.Options)}:
                raise OptionError(f"unknown option {name!r} for ruleset {ruleset.id}; valid options: "
                                  f"{', '.join(_shown(ruleset))}")
            return check_own(ruleset.Options, name, value, ruleset.id)
        ns, _, rest = full.partition(".")
    try:
        ext = find_extension(ns)
    except ExtensionError as exc:
        raise OptionError(f"option {name}: {exc}") from None
    if rest not in ext.option_names():
        valid = ", ".join(f"{ns}.{n}" for n in ext.option_names()) or "none"
        raise OptionError(f"unknown option {name!r} of extension {ns} (package {_package(ns)}); valid options: {valid}")
    return check_own(ext.Options, rest, value, f"extension {ns}")


def _shown(ruleset: type[Ruleset[Any, Any]]) -> list[str]:
    """The options a fight under ``ruleset`` takes, in the order its output shows them (``Ruleset.all_options``):
    every ruleset's, each extension's, the ruleset's own."""
    from dataclasses import fields

    from affray.engine.options import BaseOptions, option_info

    base = [f.name for f in fields(BaseOptions)]
    ext = [n if x.bare_options else f"{x.name}.{n}" for x in extensions() for n in x.option_names()]
    return base + ext + [i.name for i in option_info(ruleset.Options) if i.name not in base]


def _package(ns: str) -> str:
    e = entry("extension", ns)
    return f"{e.package} {e.version}" if e is not None else "?"


def option_names(ruleset: type[Ruleset[Any, Any]]) -> list[str]:
    """Every option a fight under ``ruleset`` takes: the ruleset's, then each extension's ``NS.option`` (its bare
    name for an extension that reads bare names: how its older files and the output name them)."""
    from affray.engine.options import option_info

    return [i.name for i in option_info(ruleset.Options)] + [
        f"{x.name}.{n}" if not x.bare_options else n for x in extensions() for n in x.option_names()]


def bind(ruleset: Ruleset[Any, Any]) -> None:
    """Parse each installed extension's options from ``ruleset.ext_options`` (``NS.option``) into ``ruleset.ext``
    (by extension name), once: what a fight's rules and its output read."""
    if ruleset.ext:
        return
    given = extension_options(ruleset.ext_options)
    unknown = sorted(set(given) - {x.name for x in extensions()})
    if unknown:
        find_extension(unknown[0])  # names it, with its package's error if it is broken
    ruleset.ext = {x.name: x.parse(given.get(x.name, {})) for x in extensions()}
    ruleset.ext_prefix = {x.name: "" if x.bare_options else f"{x.name}." for x in extensions()}


def extension_options(given: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The options ``NS.option`` of ``given`` by extension (the names without the namespace)."""
    out: dict[str, dict[str, Any]] = {}
    for name, value in given.items():
        ns, dot, rest = name.partition(".")
        if dot:
            out.setdefault(ns, {})[rest] = value
    return out


def __getattr__(name: str) -> Any:
    """``Extension`` and ``NoOptions`` (``base``), imported when asked for: the registry alone imports no engine."""
    if name in ("Extension", "NoOptions"):
        from affray.extensions import base

        return getattr(base, name)
    raise AttributeError(f"module 'affray.extensions' has no attribute {name!r}")
