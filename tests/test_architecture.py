"""docs/architecture.md and the README's "How it is built" (issue 40): every module and file they name exists, so
that the description cannot drift from the code unseen (the README's described a layout gone for a while)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "affray"


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def test_every_module_architecture_md_names_exists() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(affray(?:\.[a-z_0-9]+)+)`", text))
    assert len(named) > 25  # the layers' packages and the modules of the flow
    missing = sorted(n for n in named if not _exists(n))
    assert not missing, missing


def _exists(name: str) -> bool:
    """A module, or a name a module defines (``affray.plugins.assemble``)."""
    if importlib.util.find_spec(name) is not None:
        return True
    module, _, attr = name.rpartition(".")
    return importlib.util.find_spec(module) is not None and hasattr(importlib.import_module(module), attr)


def test_every_package_and_file_the_readme_names_exists() -> None:
    text = _section((ROOT / "README.md").read_text(encoding="utf-8"), "## How it is built")
    folders = re.findall(r"`([a-z_0-9/]+)/`", text)
    files = re.findall(r"`([a-z_0-9]+\.py)`", text)
    assert len(folders) > 15 and len(files) > 15
    assert [f for f in folders if not (SRC / f).is_dir()] == []
    assert [f for f in files if not list(SRC.rglob(f))] == []
    # each package of affray is named (a new one must be described)
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()} - {"examples"}
    assert packages <= {f.split("/")[0] for f in folders}, packages - {f.split("/")[0] for f in folders}
