"""Run affray as pure Python even where its compiled build (mypyc) is installed: the digests of ``affray run
--json`` for the cases given as JSON on stdin, one a line on stdout. ``test_builds.py`` compares them with
the compiled build's.

    python tests/pure_build.py < cases.json

An import hook loads each affray module from its ``.py`` file where an extension module of the same name
sits beside it; every other package imports as usual.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)


class PureAffray(importlib.abc.MetaPathFinder):
    """affray's modules from source: a compiled module is passed over for the ``.py`` it was built from."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        if name != "affray" and not name.startswith("affray."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.origin is None or not spec.origin.endswith(EXTENSIONS):
            return spec
        stem = Path(spec.origin).name.split(".")[0]
        source = Path(spec.origin).with_name(f"{stem}.py")
        if stem == "__init__":  # a package: keep its search path
            return importlib.util.spec_from_file_location(name, source,
                                                          submodule_search_locations=[str(source.parent)])
        return importlib.util.spec_from_file_location(name, source)


def main() -> int:
    sys.meta_path.insert(0, PureAffray())
    from affray.engine import fight

    assert fight.__file__ is not None and fight.__file__.endswith(".py"), fight.__file__
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_builds import digest

    for case in json.load(sys.stdin):
        print(digest(*case))
    return 0


if __name__ == "__main__":
    sys.exit(main())
