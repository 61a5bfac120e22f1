"""The compiled build, asked for with ``AFFRAY_COMPILE=1``: mypyc compiles the engine, the rulesets and the plug-ins.

Everything else of the package is in pyproject.toml. Without ``AFFRAY_COMPILE=1`` the build is pure Python (the
default: the same code, the same bytes out, installed in seconds). Asked for where it cannot be made (no C
compiler), the build fails and says why rather than fall back unseen.

The compiled modules share one library, ``affray._native__mypyc`` (inside the package: nothing of affray's at the
top of site-packages), whose C is written one file per module (``multi_file``) and compiled on every core at once.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "build_backend"))
from affray_backend import compile_asked  # noqa: E402

#: Compiled: the fight's hot path (the engine, the rulesets, the plug-ins, and what they call on every step: the
#: default policy, the dice, the shared reckonings, the derived tables; the simulator's tally of each fight, its
#: clock and its fold into the summary), the events included. Left interpreted: the options (fields built by
#: ``option()``, read by dataclasses at class creation) and the packages' ``__init__``.
COMPILED = ("engine/*.py", "rulesets/*.py", "plugins/*.py", "reckon/*.py", "policy.py", "dice/roller.py",
            "sim/tally.py", "sim/clock.py", "model/derive.py", "model/arms.py", "model/order.py", "model/view.py",
            # Combat II's supplement's step rules and reckonings (its options and its extension class stay
            # interpreted: option() fields, and a subclass of the interpreted affray.extensions.Extension)
            "supplements/c2x/crits.py", "supplements/c2x/strength.py", "supplements/c2x/pools.py",
            "supplements/c2x/agility.py")
INTERPRETED = {"engine/options.py"}


def _compiler() -> str | None:
    cc = sysconfig.get_config_var("CC") or "cc"
    return shutil.which(shlex.split(cc)[0])


def _modules() -> list[str]:
    src = HERE / "src" / "affray"
    return sorted(str(p.relative_to(HERE)) for pattern in COMPILED for p in src.glob(pattern)
                  if p.name != "__init__.py" and str(p.relative_to(src)) not in INTERPRETED)


def _jobs() -> int:
    """C files compiled at once: ``AFFRAY_COMPILE_JOBS``, else one per core."""
    return int(os.environ.get("AFFRAY_COMPILE_JOBS") or os.cpu_count() or 1)


def _parallel_compile() -> None:
    """setuptools compiles an extension's C files one after another: here, ``_jobs()`` at a time (the files are
    independent; each is one module's C, ``multi_file``)."""
    from distutils.ccompiler import CCompiler  # setuptools' own (imported above, it stands in for distutils)

    def compile_all(self: Any, sources: list[str], output_dir: str | None = None, macros: Any = None,
                    include_dirs: Any = None, debug: Any = False, extra_preargs: Any = None,
                    extra_postargs: Any = None, depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(_jobs()) as pool:
            list(pool.map(one, [obj for obj in objects if obj in build]))  # the others are up to date
        return list(objects)

    CCompiler.compile = compile_all  # type: ignore[method-assign]


#: The commands that only write the metadata (the backend asks for it before building): no need to compile.
METADATA_ONLY = {"egg_info", "dist_info"}


def _ext_modules() -> list[Any]:
    if not compile_asked() or set(sys.argv[1:]) & METADATA_ONLY:
        return []
    if _compiler() is None:
        sys.exit("affray: AFFRAY_COMPILE=1 asks for the compiled build, but there is no C compiler here "
                 f"({sysconfig.get_config_var('CC') or 'cc'}): install one (Debian: apt-get install gcc python3-dev), "
                 "or leave AFFRAY_COMPILE out for the pure build")
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("affray: AFFRAY_COMPILE=1 asks for the compiled build, but mypyc is not installed here: build "
                 "with pip's build isolation (the default), or pip install mypy first")
    _parallel_compile()
    opt = os.environ.get("AFFRAY_COMPILE_OPT", "3")
    # The modules it compiles are checked strictly; those they import but do not compile (a package's __init__, the
    # simulator's runner) are read for their types only, silently: the build's environment has mypy, pydantic and
    # stubs, not numpy, ruamel.yaml or Dask, so their imports and the ignores written for them would be errors.
    extensions = list(mypycify(["--follow-imports=silent", *_modules()], opt_level=opt, multi_file=True,
                               group_name="affray._native"))
    for ext in extensions:  # multi_file writes each module's C in build/, its group's header in build/affray/
        ext.include_dirs.append(os.path.join("build", "affray"))
    return extensions


ext_modules = _ext_modules()
# the shims (one small extension a module) are built in parallel too
setup(ext_modules=ext_modules, options={"build_ext": {"parallel": _jobs()}} if ext_modules else {})
