"""Run affray as pure Python even where its compiled build (mypyc) is installed: the digests of ``affray run
--json`` for the cases given as JSON on stdin, one a line on stdout. ``test_builds.py`` compares them with
the compiled build's.

    python tests/pure_build.py < cases.json

``affray.compiled.pure_sources()`` loads each affray module from its ``.py`` file where an extension module of the
same name sits beside it; every other package imports as usual.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> int:
    from affray.compiled import pure_sources

    pure_sources()
    from affray.engine import fight

    assert fight.__file__ is not None and fight.__file__.endswith(".py"), fight.__file__
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_builds import digest

    for case in json.load(sys.stdin):
        print(digest(*case))
    return 0


if __name__ == "__main__":
    sys.exit(main())
