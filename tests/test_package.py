"""The package as installed: its version in one place, ``affray --version`` naming the build that runs."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import affray
from affray.compiled import compiled_modules


def test_the_installed_metadata_has_the_version_of_the_sources() -> None:
    # pyproject.toml's version is dynamic: affray.__version__, read by setuptools at the build
    assert importlib.metadata.version("affray") == affray.__version__


def test_version_names_the_build_that_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "affray", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    from affray.engine import fight

    compiled = not (fight.__file__ or "").endswith(".py")
    n = len(compiled_modules())
    assert compiled == (n > 0)  # the engine is compiled exactly when the package has compiled modules
    build = f"compiled with mypyc: {n} modules" if compiled else "pure Python"
    assert done.stdout == f"affray {affray.__version__} ({build})\n"
