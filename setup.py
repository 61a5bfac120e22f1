"""The compiled build: the engine, the rulesets and the plug-ins compiled with mypyc when a C compiler is at hand.

Everything else of the package is in pyproject.toml. Without a C compiler, without mypyc, or with
``AFFRAY_PURE=1`` in the environment, the install is pure Python: the same code, the same bytes out.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sysconfig
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent

#: Compiled: the fight's hot path (the engine, the rulesets, the plug-ins, and what they call on every step: the
#: default policy, the dice, the shared reckonings, the derived tables), the events included. Left interpreted:
#: the options (fields built by ``option()``, read by dataclasses at class creation) and the packages' ``__init__``.
COMPILED = ("engine/*.py", "rulesets/*.py", "plugins/*.py", "reckon/*.py", "policy.py", "dice/roller.py",
            "model/derive.py", "model/arms.py", "model/order.py", "model/view.py")
INTERPRETED = {"engine/options.py"}


def _compiler() -> bool:
    cc = sysconfig.get_config_var("CC") or "cc"
    return shutil.which(shlex.split(cc)[0]) is not None


def _modules() -> list[str]:
    src = HERE / "src" / "affray"
    return sorted(str(p.relative_to(HERE)) for pattern in COMPILED for p in src.glob(pattern)
                  if p.name != "__init__.py" and str(p.relative_to(src)) not in INTERPRETED)


def _ext_modules() -> list[object]:
    if os.environ.get("AFFRAY_PURE") or not _compiler():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    return list(mypycify(_modules(), opt_level="3", group_name="affray_native"))


setup(ext_modules=_ext_modules())
