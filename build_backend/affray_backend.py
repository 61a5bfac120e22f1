"""affray's build backend: setuptools' own, which also asks for mypyc's tools when the compiled build is asked for.

The pure build (the default) needs setuptools alone, and installs in seconds. ``AFFRAY_COMPILE=1`` asks for the
compiled one (setup.py: mypyc compiles the engine, the rulesets and the plug-ins): only then does the build
environment get mypy (mypyc), pydantic (its mypy plugin) and the stubs mypy reads.

An editable install runs the sources in ``src/``; a compiled editable install puts the compiled modules beside
them. So a pure editable install first removes compiled modules an earlier compiled one left there, which
Python would import instead of the sources (``affray`` warns at import when a source is newer than its compiled
module, the case of an edit after a compiled editable install).
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook setuptools has, then the ones below over them)

#: What the compiled build needs to build (pyproject.toml's [build-system] requires the rest).
COMPILE_REQUIRES = ["mypy>=2.4,<3", "pydantic>=2.14,<3", "types-greenlet>=3.0,<4"]

SRC = Path(__file__).resolve().parent.parent / "src" / "affray"


def compile_asked() -> bool:
    """``AFFRAY_COMPILE=1`` (or true, yes, on) in the environment."""
    return os.environ.get("AFFRAY_COMPILE", "").strip().lower() in ("1", "true", "yes", "on")


def _compiling(requires: list[str]) -> list[str]:
    return requires + COMPILE_REQUIRES if compile_asked() else requires


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _compiling(_setuptools.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _compiling(_setuptools.get_requires_for_build_editable(config_settings))


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    if not compile_asked():
        left = sorted({p for suffix in EXTENSION_SUFFIXES for p in SRC.rglob(f"*{suffix}")}  # ".so" and its kin
                      | set(SRC.parent.glob("affray_native*")))  # the shared library's place before affray 0.2
        for path in left:
            path.unlink()
        if left:
            print(f"affray: removed {len(left)} compiled modules an earlier AFFRAY_COMPILE=1 install left in "
                  f"{SRC}: this editable install runs the sources", file=sys.stderr)
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))
