"""mkdocs.yml's hooks: the repository's README as the site's overview page, and the API reference's page.

The docs are written to read in the repository, where a page links the README as ``../README.md`` and the README
links the pages as ``docs/PAGE.md``; on the site the README is ``overview.md`` beside them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent

#: The API reference: what the README's "The Python API" and "From Python" use, module by module.
API = """# API reference

The Python API, from the docstrings. The README's [Python API](overview.md#the-python-api) shows it at work.

::: affray.api

::: affray.io.load

::: affray.io.timeline

::: affray.engine.fight

::: affray.engine.ruleset

::: affray.engine.events

::: affray.drive.driven

::: affray.sim.simulate

::: affray.dice

::: affray.errors

::: affray.extras

::: affray.compiled
"""


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "overview.md", content=(ROOT / "README.md").read_text(encoding="utf-8")))
    files.append(File.generated(config, "api.md", content=API))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if page.file.src_uri == "overview.md":  # the README: its links into docs/ are the site's own pages
        return markdown.replace("](docs/", "](")
    depth = page.file.src_uri.count("/")
    return re.sub(r"\]\((?:\.\./)+README\.md", "](" + "../" * depth + "overview.md", markdown)
