"""Which build of affray runs: pure Python (the default install) or compiled with mypyc (``AFFRAY_COMPILE=1``).

A compiled install keeps each compiled module's ``.py`` beside its extension module. So the one install can also
run as pure Python (``pure_sources()``: the tests' and the benchmarks' way of comparing both builds), and an
editable install can tell when a source was edited after it was compiled (``stale()``: Python imports the
extension module, not the edit; ``affray`` warns of it at import).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["StaleBuildWarning", "compiled_modules", "describe", "pure_sources", "stale"]

PACKAGE = Path(__file__).resolve().parent
EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
#: The library the compiled modules share (setup.py's group), itself no module of affray's sources.
SHARED_LIBRARY = "_native__mypyc"


class StaleBuildWarning(UserWarning):
    """A compiled module is older than its source: the source's edit does not run."""


def _extensions() -> list[Path]:
    """The compiled modules of this installation's package (its shared library left out)."""
    out: list[Path] = []
    for folder, _dirs, files in os.walk(PACKAGE):
        out += [Path(folder, f) for f in files if f.endswith(EXTENSIONS) and not f.startswith(SHARED_LIBRARY)]
    return sorted(out)


def _source(extension: Path) -> Path:
    return extension.with_name(extension.name.split(".")[0] + ".py")


def compiled_modules() -> list[str]:
    """The dotted names of the compiled modules (none in the pure build)."""
    return [".".join(("affray", *_source(p).relative_to(PACKAGE).with_suffix("").parts)) for p in _extensions()]


def stale() -> list[tuple[Path, Path]]:
    """(source, compiled module) of every source changed after it was compiled (an editable install's edit)."""
    out = []
    for ext in _extensions():
        source = _source(ext)
        if source.exists() and source.stat().st_mtime > ext.stat().st_mtime:
            out.append((source, ext))
    return out


def stale_message(found: list[tuple[Path, Path]]) -> str:
    source, ext = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (f"affray: {source}{more} changed after it was compiled: Python imports {ext.name} instead, and the "
            "change does not run. Compile again (AFFRAY_COMPILE=1 pip install -e .) or go back to the pure build "
            "(pip install -e ., which removes the compiled modules)")


def describe() -> str:
    """``affray --version``'s line: the version, and the build that runs."""
    from affray import __version__

    modules = compiled_modules()
    if not modules:
        return f"affray {__version__} (pure Python)"
    loaded = sys.modules.get("affray.engine.fight")
    pure = loaded is not None and (loaded.__file__ or "").endswith(".py")
    runs = ", running their sources" if pure else ""
    return f"affray {__version__} (compiled with mypyc: {len(modules)} modules{runs})"


class _PureSources(importlib.abc.MetaPathFinder):
    """affray's modules from source: a compiled module is passed over for the ``.py`` it was built from."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith("affray."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.origin is None or not spec.origin.endswith(EXTENSIONS):
            return spec
        source = _source(Path(spec.origin))
        if source.name == "__init__.py":  # a package: keep its search path
            return importlib.util.spec_from_file_location(name, source,
                                                          submodule_search_locations=[str(source.parent)])
        return importlib.util.spec_from_file_location(name, source)


def pure_sources() -> None:
    """From now on, import affray's modules from their ``.py`` files where compiled ones sit beside them: the pure
    build, in a compiled install. Call it before anything of affray's engine is imported."""
    if not any(isinstance(f, _PureSources) for f in sys.meta_path):
        early = [m for m in compiled_modules() if m in sys.modules]
        if early:
            raise RuntimeError(f"pure_sources(): {early[0]} is imported already, as compiled")
        sys.meta_path.insert(0, _PureSources())
