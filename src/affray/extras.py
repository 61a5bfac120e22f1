"""affray's optional parts: the packages each extra of pyproject.toml installs, and the error that names the extra.

The core install (``pip install affray``) runs, checks, plays and drives fights; ``affray[web]`` serves the table's
page, ``affray[sim]`` simulates (``simulate``, ``compare``, ``odds``, ``--plot``, ``Simulation.frame()``),
``affray[cluster]`` sends the fights to a Dask cluster (``--scheduler``), ``affray[all]`` installs the three.
"""

from __future__ import annotations

import importlib.util

from affray.errors import MissingExtraError

__all__ = ["EXTRA_OF", "missing_extra", "require"]

#: The top-level module of each optional package, and the extra that installs it.
EXTRA_OF = {
    "numpy": "sim", "pandas": "sim", "matplotlib": "sim", "icepool": "sim",
    "dask": "cluster", "distributed": "cluster",
    "fastapi": "web", "starlette": "web", "uvicorn": "web", "jinja2": "web", "multipart": "web",
    "python_multipart": "web", "qrcode": "web",
}


def _message(what: str, modules: list[str]) -> str:
    extras = sorted({EXTRA_OF[m] for m in modules})
    spec = f"affray[{','.join(extras)}]"
    return (f"{what} needs {', '.join(modules)}, which the extra {spec} installs and affray's core does not: "
            f"pip install '{spec}'")


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: blocked (None in sys.modules)
        return False


def require(what: str, *modules: str) -> None:
    """MissingExtraError naming the extra to install unless every one of ``modules`` can be imported."""
    missing = [m for m in modules if not _installed(m)]
    if missing:
        raise MissingExtraError(_message(what, missing))


def missing_extra(exc: ModuleNotFoundError, what: str) -> MissingExtraError | None:
    """The error to report for ``exc`` if what it could not import is an extra's package (else None)."""
    top = (exc.name or "").partition(".")[0]
    return MissingExtraError(_message(what, [top])) if top in EXTRA_OF else None
