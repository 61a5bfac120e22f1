"""A simulation as a figure: win rates with their 95% intervals, and how long the fights last (PNG or SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.errors import OptionError
from affray.sim.simulate import Simulation
from affray.sim.summary import LengthStats

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["FORMATS", "check_plot_path", "save_figure"]

FORMATS = {".png": "png", ".svg": "svg"}


def check_plot_path(path: Path) -> str:
    """The figure's format from the file name; OptionError for another extension or a missing folder."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise OptionError(f"--plot {path}: name a .png or .svg file (the extension picks the format)")
    if not path.parent.is_dir():
        raise OptionError(f"--plot {path}: no such folder {path.parent}")
    return fmt


def _percentile(ln: LengthStats, q: float) -> float:
    n = sum(ln.histogram.values())
    seen = 0
    for k, v in ln.histogram.items():
        seen += v
        if seen >= q * n:
            return float(k)
    return float(ln.max)


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


def _lengths(ax: Axes, sim: Simulation) -> None:
    stats = list(sim.rulesets.values())
    boxes: list[dict[str, Any]] = []
    for s in stats:
        ln = s.length
        boxes.append({"label": f"{s.ruleset}\n({ln.unit})", "med": ln.median, "mean": ln.mean,
                      "q1": _percentile(ln, 0.25), "q3": _percentile(ln, 0.75),
                      "whislo": _percentile(ln, 0.05), "whishi": _percentile(ln, 0.95), "fliers": []})
    ax.bxp(boxes, orientation="horizontal", showmeans=True)
    ax.invert_yaxis()
    ax.set_xlabel("length in the ruleset's own unit\n(box: quartiles; whiskers: 5% and 95%; triangle: mean)")
    ax.set_title("How long a fight lasts")


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
        axes[1].plot(xs, [p.rulesets[r].length.mean for p in sim.points], marker="o",
                     label=f"{r} ({sim.rulesets[r].length.unit})")
    for ax in axes:
        ax.set_xticks(xs, labels, rotation=30, ha="right")
        ax.set_xlabel(", ".join(sim.sweep))
        ax.legend(fontsize="small")
    axes[0].set_ylabel(f"{side} wins (%), 95% interval")
    axes[0].set_ylim(0, 100)
    axes[0].set_title(f"{side} wins by grid point ({sim.fights} fights a point)")
    axes[1].set_ylabel("mean length")
    axes[1].set_title("How long a fight lasts")


def save_figure(sim: Simulation, path: Path) -> None:
    """Draw ``sim`` and write it to ``path`` (.png or .svg) with the Agg backend (no display needed)."""
    fmt = check_plot_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13, 5.5), layout="constrained")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    if sim.sweep:
        _sweep([left, right], sim)
    else:
        _wins(left, sim)
        _lengths(right, sim)
    metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {}
    try:
        fig.savefig(path, format=fmt, dpi=110, metadata=metadata)
    except OSError as exc:
        raise OptionError(f"--plot {path}: cannot write it ({exc.strerror})") from None
