"""The scale bench's plot: latency against data size beside the floor's parts, and each figure ÷ its floor."""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any

__all__ = ["write_plot"]


def write_plot(report: Mapping[str, Any], path: str | PathLike[str]) -> None:
    """Latency p50 against data size, graphbrain and the floor's parts (left), and each figure's p95 ÷ its
    floor's p95, both measured per round (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = report["sizes"]
    xs = [s["graph"].get("memory_items") or s["target_items"] for s in sizes]
    cmap = plt.get_cmap("tab20")
    colours = [cmap(i) for i in range(20)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2))
    for i, (key, label) in enumerate(report["figure_labels"].items()):
        colour = colours[(2 * i) % len(colours)]
        ys = [s["figures"].get(key, {}).get("p50") for s in sizes]
        if all(y is not None for y in ys):
            left.plot(xs, ys, marker="o", color=colour, label=label)
        rs = [s["figures"].get(key, {}).get("x_p95") for s in sizes]
        if all(r is not None for r in rs):
            right.plot(xs, rs, marker="o", color=colour, label=label)
    for i, (key, label) in enumerate(report["part_labels"].items()):
        ys = [s["parts"].get(key, {}).get("p50") for s in sizes]
        if all(y is not None for y in ys):
            colour = colours[(2 * i + 1) % len(colours)]
            left.plot(xs, ys, marker="x", linestyle="--", color=colour, label=f"floor: {label}")
    for ax, title, ylabel in (
        (left, "latency p50 by data size", "ms (log)"),
        (right, "graphbrain p95 ÷ floor p95", "× floor (log)"),
    ):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("memory items (log)")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    settings = report["settings"]
    fig.suptitle(f"graphbrain bench scale — {settings.get('backend') or ''} — {settings['embedding_model']}")
    fig.tight_layout()
    out = Path(path)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
