"""A third party's package, written into a test's temporary folder: its own pyproject.toml with entry points under
affray's groups (CONTRACT.md "Extensions"), made findable as pip would make it (a ``*.dist-info`` beside the code,
whose ``entry_points.txt`` is the pyproject's table) with no network and no build: ``installed(tmp)`` gives the
folder to put on PYTHONPATH (or sys.path).

It adds:

- ruleset ``gentle-d6``: side-d6 under another id (its own package, its own version), so that every command can be
  seen to run a ruleset no list of affray's names;
- policy ``stagger-first`` (group ``affray.policies``);
- extension ``stagger``, with one option ``stagger.on`` (default false: a fight without it runs as before) and one
  condition ``staggered`` (-2 to attack): with the option on, a melee hit of 5 or more damage staggers its target
  until the end of the phase (rule ST-01 of the package);
- ruleset ``restless-d6`` (only with ``broken=True``): side-d6 whose initiative dice come from an unseeded
  generator, so that the same file and seed do not give the same bytes: the conformance kit must fail it, naming
  that property.
- extension ``shattered`` (only with ``broken=True``): one whose import fails, which affray must name and pass by.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = """\
[project]
name = "affray-stagger"
version = "1.4.2"
dependencies = ["affray"]

[project.entry-points."affray.rulesets"]
gentle-d6 = "affray_stagger:GentleD6"

[project.entry-points."affray.extensions"]
stagger = "affray_stagger:Stagger"

[project.entry-points."affray.policies"]
stagger-first = "affray_stagger:stagger_first"
"""

CODE = '''\
"""A third party's ruleset and extension for affray."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from affray.engine.conditions import Effect
from affray.engine.options import option
from affray.engine.rules import Rule
from affray.extensions import Extension
from affray.rulesets.side_d6 import SideD6


class GentleD6(SideD6):
    """side-d6, as another package's ruleset."""

    id = "gentle-d6"
    title = "Gentle d6: side-d6 under another name, from another package"


@dataclass(frozen=True)
class StaggerOptions:
    on: bool = option(False, "ST-01", "a melee hit of 5 or more damage staggers its target: -2 to attack until the "
                      "phase ends")


class StaggerRule(Rule):
    """ST-01. Its per-fight state: how many it staggered (made afresh for each fight)."""

    def __init__(self) -> None:
        self.staggered = 0

    def struck(self, fight: Any, step: Any, target: Any, event: Any, roll: Any) -> None:
        if event.hit and event.damage >= 5 and target.active and step.kind == "melee":
            self.staggered += 1
            fight.set_condition(step.tick, step.at, target, "staggered", fight.ruleset.phase_end(fight, step.tick),
                                by=step.actor.name, rule="ST-01",
                                why=f"{event.damage} damage staggers {target.name} (ST-01)")


def stagger_first(fight: Any, me: Any) -> Any:
    """A policy: the default's choice (a package's policy, listed by ``affray rulesets``)."""
    return None


class Stagger(Extension):
    name = "stagger"
    title = "Staggering blows"
    rule_ids = "ST"
    Options = StaggerOptions
    conditions = {"staggered": Effect("-2 to attack", "ST-01: a heavy blow", hit=-2)}

    def rules(self) -> list[Rule]:
        return [StaggerRule()] if self.opt.on else []
'''

BROKEN_CODE = '''

class RestlessD6(SideD6):
    """side-d6 whose initiative ignores the fight's seed: it breaks "same file + seed = same bytes"."""

    id = "restless-d6"
    title = "Restless d6: initiative from an unseeded generator"

    def begin(self, fight: Any, period: int) -> None:
        fight.roller._random = random.SystemRandom().random
        super().begin(fight, period)
'''


def installed(tmp: Path, *, broken: bool = False) -> Path:
    """Write the package under ``tmp`` and its dist-info as pip would install it; return the folder to put on the
    path."""
    src = tmp / "affray-stagger"
    (src / "affray_stagger").mkdir(parents=True, exist_ok=True)
    pyproject = PYPROJECT
    code = CODE
    if broken:
        ruleset, extension = 'gentle-d6 = "affray_stagger:GentleD6"\n', 'stagger = "affray_stagger:Stagger"\n'
        pyproject = pyproject.replace(ruleset, ruleset + 'restless-d6 = "affray_stagger:RestlessD6"\n')
        pyproject = pyproject.replace(extension, extension + 'shattered = "affray_stagger.missing:Shattered"\n')
        code += BROKEN_CODE
    (src / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (src / "affray_stagger" / "__init__.py").write_text(code, encoding="utf-8")
    project = tomllib.loads(pyproject)["project"]
    info = src / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
                                   encoding="utf-8")
    points = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in table.items()) + "\n"
                     for group, table in project["entry-points"].items())
    (info / "entry_points.txt").write_text(points, encoding="utf-8")
    return src
