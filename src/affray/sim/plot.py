"""A simulation as a figure: win rates with their 95% intervals, and how long the fights last (PNG or SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.errors import OptionError
from affray.io.output import Output, output
from affray.sim.simulate import Simulation

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["FORMATS", "check_plot_path", "draw_figure", "plot_target", "save_figure"]

FORMATS = {".png": "png", ".svg": "svg"}


def check_plot_path(path: Path) -> str:
    """The figure's format from the file name (a folder: a .png named after the encounter); OptionError for another
    extension or a missing folder."""
    if path.is_dir():
        return "png"
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise OptionError(f"--plot {path}: name a .png or .svg file (the extension picks the format), or a folder")
    if not path.parent.is_dir():
        raise OptionError(f"--plot {path}: no such folder {path.parent}")
    return fmt


def plot_target(path: Path, file: str | Path, sweep: bool) -> Path:
    """The figure's file: ``path``, or in a folder ``ENCOUNTER-compare.png`` (``ENCOUNTER-sweep.png``)."""
    check_plot_path(path)
    if path.is_dir():
        return path / f"{Path(file).stem or 'encounter'}-{'sweep' if sweep else 'compare'}.png"
    return path


def _wins(ax: Axes, sim: Simulation) -> None:
    stats = list(sim.rulesets.values())
    sides = list(dict.fromkeys(side for s in stats for side in s.sides))
    width = 0.8 / max(1, len(sides) + 1)
    xs = range(len(stats))
    for k, label in enumerate([*sides, "draw"]):
        rates = [s.draw_rate if label == "draw" else s.win_rate[label] for s in stats]
        pos = [x - 0.4 + width * (k + 0.5) for x in xs]
        ax.bar(pos, [100 * r.p for r in rates], width, label=label,
               yerr=[[100 * (r.p - r.low) for r in rates], [100 * (r.high - r.p) for r in rates]], capsize=3)
    ax.set_xticks(list(xs), [s.ruleset for s in stats], rotation=30, ha="right")
    ax.set_ylabel("fights won (%), 95% interval")
    ax.set_ylim(0, 100)
    ax.set_title(f"Who wins ({sim.fights} fights per ruleset, seed {sim.seed})")
    ax.legend(fontsize="small", loc="center right")


def _minutes(ax: Axes, sim: Simulation) -> None:
    """Each ruleset's fight length in game minutes, side by side (its own units differ: rounds of a minute, of 20
    seconds, phases of 3 seconds...)."""
    stats = list(sim.rulesets.values())
    boxes: list[dict[str, Any]] = []
    for s in stats:
        q = s.minutes_quantiles
        boxes.append({"label": f"{s.ruleset}\n({s.length.mean:.1f} {s.length.unit})", "med": q["50%"],
                      "mean": s.minutes.mean, "q1": q["25%"], "q3": q["75%"], "whislo": q["5%"], "whishi": q["95%"],
                      "fliers": []})
    ax.bxp(boxes, orientation="horizontal", showmeans=True)
    ax.invert_yaxis()
    ax.set_xlabel("game minutes (box: quartiles; whiskers: 5% and 95%; triangle: mean)")
    ax.set_title("How long a fight lasts, in game minutes")


def _spells(ax: Axes, sim: Simulation) -> None:
    """How the castings ended, as shares of all castings, per ruleset."""
    stats = list(sim.rulesets.values())
    labels = {"completed": "landed", "ruined": "ruined", "lost": "lost", "unbegun": "never begun", "cut": "cut off"}
    xs = range(len(stats))
    bottom = [0.0] * len(stats)
    for kind, label in labels.items():
        shares = [100 * s.spells[kind] / max(1, sum(s.spells.values())) for s in stats]
        ax.bar(list(xs), shares, 0.6, bottom=bottom, label=label)
        bottom = [b + x for b, x in zip(bottom, shares, strict=True)]
    ax.set_xticks(list(xs), [f"{s.ruleset}\n{sum(s.spells.values()) / max(1, s.fights):.1f} a fight" for s in stats],
                  rotation=30, ha="right")
    ax.set_ylabel("share of castings (%)")
    ax.set_ylim(0, 100)
    ax.set_title("How the spells ended")
    ax.legend(fontsize="small", loc="lower right")


def _sweep(axes: list[Axes], sim: Simulation) -> None:
    labels = [", ".join(str(v) for v in p.values.values()) for p in sim.points]
    xs = list(range(len(sim.points)))
    ids = list(sim.rulesets)
    side = next(iter(next(iter(sim.rulesets.values())).sides), None)
    for r in ids:
        rates = [p.rulesets[r].win_rate[side] for p in sim.points] if side else []
        axes[0].errorbar(xs, [100 * x.p for x in rates], yerr=[[100 * (x.p - x.low) for x in rates],
                                                                [100 * (x.high - x.p) for x in rates]],
                         capsize=3, marker="o", label=r)
        minutes = [p.rulesets[r].minutes for p in sim.points]
        axes[1].errorbar(xs, [m.mean for m in minutes], yerr=[[m.mean - m.low for m in minutes],
                                                              [m.high - m.mean for m in minutes]],
                         capsize=3, marker="o", label=r)
    for ax in axes:
        ax.set_xticks(xs, labels, rotation=30, ha="right")
        ax.set_xlabel(", ".join(sim.sweep))
        ax.legend(fontsize="small")
    axes[0].set_ylabel(f"{side} wins (%), 95% interval")
    axes[0].set_ylim(0, 100)
    axes[0].set_title(f"{side} wins by grid point ({sim.fights} fights a point)")
    axes[1].set_ylabel("mean length in game minutes, 95% interval")
    axes[1].set_title("How long a fight lasts")


def save_figure(sim: Simulation, path: Path) -> Path:
    """Draw ``sim`` and write it to ``path`` (.png or .svg; a folder: ``ENCOUNTER-compare.png`` or
    ``ENCOUNTER-sweep.png`` in it), whole or not at all; the file written."""
    target = plot_target(path, sim.file, bool(sim.sweep))
    with output(target, "--plot") as out:
        draw_figure(sim, out)
    return target


def draw_figure(sim: Simulation, out: Output) -> None:
    """Draw ``sim`` into ``out`` (its format from its name) with the Agg backend (no display needed); the caller
    commits it."""
    fmt = check_plot_path(out.path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13, 5.5) if sim.sweep else (19, 5.5), layout="constrained")
    FigureCanvasAgg(fig)
    if sim.sweep:
        left, right = fig.subplots(1, 2)
        _sweep([left, right], sim)
    else:
        left, middle, right = fig.subplots(1, 3)
        _wins(left, sim)
        _minutes(middle, sim)
        _spells(right, sim)
    fig.suptitle(f"{sim.name}: {sim.fights} fights a ruleset{' and point' if sim.sweep else ''} with --auto, "
                 f"seed {sim.seed}")
    metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {}
    try:
        fig.savefig(out.file, format=fmt, dpi=110, metadata=metadata)
    except OSError as exc:
        raise out.failed(exc) from None
