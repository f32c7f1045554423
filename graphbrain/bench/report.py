"""Plain-text tables and JSON for the benchmark reports (``locomo`` and ``scale``).

    print(format_locomo(report))
    write_json(report, "locomo.json")

Tables are monospace text with right-aligned numbers; a missing figure prints as ``-``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

__all__ = [
    "criteria_lines",
    "format_locomo",
    "format_scale",
    "format_scale_backends",
    "table",
    "to_json",
    "write_json",
]


def to_json(report: Mapping[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2, default=str)


def write_json(report: Mapping[str, Any], path: str | PathLike[str]) -> None:
    file = Path(path)
    if file.parent and not file.parent.exists():
        file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(to_json(report) + "\n", encoding="utf-8")


def _cell(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, digits: int = 3) -> str:
    """A text table: the first column left-aligned, the others right-aligned."""
    cells = [[_cell(v, digits) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))

    def line(values: Sequence[str]) -> str:
        parts = [values[0].ljust(widths[0])] + [v.rjust(widths[i]) for i, v in enumerate(values[1:], start=1)]
        return "  ".join(parts).rstrip()

    out = [line(list(headers)), line(["-" * w for w in widths])]
    out += [line(row) for row in cells]
    return "\n".join(out)


# =================================================================================== LoCoMo
def format_locomo_backends(by_backend: Mapping[str, Mapping[str, Any]]) -> str:
    """graphbrain's LoCoMo figures on each backend, side by side (the baselines do not touch a backend)."""
    names = list(by_backend)
    first = by_backend[names[0]]
    ks: list[int] = list(first["ks"])
    systems = [n for n, s in first["systems"].items() if s["kind"] == "graphbrain"]
    headers = ["overall 1-4", *[f"{b} r@{k}" for b in names for k in ks]]
    rows: list[list[Any]] = []
    for name in systems:
        rows.append(
            [name]
            + [by_backend[b]["systems"][name]["recall"].get("overall", {}).get(f"r@{k}") for b in names for k in ks]
        )
    out = ["graphbrain on each backend (same conversations, same models, one run)", table(headers, rows)]
    headers = ["cost", *[f"{b} {what}" for b in names for what in ("ingest ms/turn", "p50 ms", "p95 ms")]]
    rows = []
    for name in systems:
        row: list[Any] = [name]
        for b in names:
            s = by_backend[b]["systems"][name]
            row += [s["ingest_ms_per_turn"], s["latency_ms"]["p50"], s["latency_ms"]["p95"]]
        rows.append(row)
    out.append(table(headers, rows, digits=1))
    return "\n".join(out)


def format_locomo(report: Mapping[str, Any]) -> str:
    ks: list[int] = list(report["ks"])
    systems: Mapping[str, Any] = report["systems"]
    names = list(systems)
    graphbrain = [n for n in names if systems[n]["kind"] == "graphbrain"]
    cats: Mapping[str, str] = report["categories"]
    convs = report["conversations"]
    settings = report["settings"]
    first = systems[names[0]]["recall"]
    rows_order = [r for r in list(cats) if r in first] + ["overall"]

    out: list[str] = []
    n_q = sum(c["questions"] for c in convs)
    n_scored = sum(c["scored"] for c in convs)
    out.append(
        f"LoCoMo retrieval: {len(convs)} conversation(s), {sum(c['turns'] for c in convs)} turns, "
        f"{n_q} questions ({n_scored} with evidence); embedding {settings['embedding_model']}"
    )
    for c in convs:
        dropped = ", ".join(f"q{d['index']}: {'; '.join(d['raw'])}" for d in c["dropped_evidence"]) or "none"
        graph = c.get("graph") or {}
        out.append(
            f"  {c['sample_id']}: {c['sessions']} sessions, {c['turns']} turns, {c['questions']} questions; "
            f"memory items {graph.get('memory_items', '-')}, entities {graph.get('entities', '-')}; "
            f"evidence repaired/dropped: {dropped}; unscored: {c['unscored'] or 'none'}"
        )
    out.append("")

    for k in ks:
        col = f"r@{k}"
        headers = ["recall@" + str(k)] + [
            f"{cats.get(r, 'overall 1-4')} (n={first.get(r, {}).get('n', 0)})" for r in rows_order
        ]
        rows: list[list[Any]] = []
        for name in names:
            rec = systems[name]["recall"]
            rows.append([name] + [rec.get(r, {}).get(col) for r in rows_order])
        best = report["best_baseline"]
        rows.append(["best baseline"] + [best.get(r, {}).get(col) for r in rows_order])
        for name in graphbrain:
            ratios = report["ratio_to_best_baseline"][name]
            rows.append([f"{name} / best"] + [ratios.get(r, {}).get(col) for r in rows_order])
        out.append(table(headers, rows))
        out.append("")

    per_conv = sorted({s for n in names for s in systems[n]["per_conversation"]})
    if len(per_conv) > 1:
        headers = ["overall 1-4 per conversation"] + [f"{s} r@{k}" for s in per_conv for k in ks]
        rows = [
            [name] + [systems[name]["per_conversation"][s].get(f"r@{k}") for s in per_conv for k in ks]
            for name in names
        ]
        out.append(table(headers, rows))
        out.append("")

    token_keys = [f"@{k}" for k in ks]
    headers = [
        "cost",
        "ingest ms/turn",
        "latency p50 ms",
        "latency p95 ms",
        *[f"evidence tok {k}" for k in token_keys],
    ]
    rows = []
    for name in names:
        s = systems[name]
        tokens = s["evidence_tokens"]
        # compose: one selection of its own, whatever k
        tok = [tokens["evidence"]] * len(token_keys) if "evidence" in tokens else [tokens.get(k) for k in token_keys]
        rows.append([name, s["ingest_ms_per_turn"], s["latency_ms"]["p50"], s["latency_ms"]["p95"], *tok])
    out.append(table(headers, rows, digits=1))
    compose = systems.get("graphbrain-compose")
    if compose:
        t = compose["evidence_tokens"]
        out.append(
            f"graphbrain-compose returns at most {settings['compose_evidence_max_items']} evidence items "
            f"(its recall@k for larger k is recall at that many); per question: evidence text "
            f"{_cell(t.get('evidence'), 1)} tokens, rendered evidence slot {_cell(t.get('evidence_slot'), 1)}, "
            f"whole package {_cell(t.get('package'), 1)} (estimate counter)."
        )
    for c in convs:
        g = c["ingest"]["graphbrain"]
        out.append(
            f"{c['sample_id']} commit_turn: p50 {_cell(g['commit_ms']['p50'], 1)} ms, "
            f"p95 {_cell(g['commit_ms']['p95'], 1)} ms, model share {_cell(g['model_share'], 2)}"
        )
    return "\n".join(out)


# =================================================================================== scale
def format_scale(report: Mapping[str, Any], *, criteria: bool = True) -> str:
    """One backend's scale report: the data, each figure against its floor, the floor's parts, throughput,
    compose's step shares, then (``criteria``) one PASS / FAIL line per criterion."""
    sizes: list[Mapping[str, Any]] = report["sizes"]
    settings = report["settings"]
    labels = [_size_label(s) for s in sizes]
    out: list[str] = []
    out.append(
        f"graphbrain at scale on {settings.get('backend') or '-'}: embedding {settings['embedding_model']}"
        f" (English: {settings.get('english_model') or 'off'}), {settings['samples']} samples per figure,"
        f" seed {settings['seed']}"
    )
    rows: list[list[Any]] = [
        ["memory items", *[s["graph"].get("memory_items") for s in sizes]],
        ["messages", *[s["graph"].get("messages") for s in sizes]],
        ["turns", *[s["graph"].get("turns") for s in sizes]],
        ["entities", *[s["graph"].get("entities") for s in sizes]],
        ["bulk load s (cumulative)", *[s["load"]["cumulative_s"] for s in sizes]],
        [
            "texts embedded / from cache",
            *[f"{s['load']['embedded'] + s['load']['embedded_en']} / {s['load']['cached']}" for s in sizes],
        ],
    ]
    out.append(table(["data", *labels], rows, digits=1))
    out.append("")

    rows = []
    for key, label in report["figure_labels"].items():
        rows.append([label, *[_figure_cell(s["figures"].get(key)) for s in sizes]])
    out.append(table(["p50 ms (p95) [x floor p50, p95]", *labels], rows))
    out.append("")

    rows = []
    for key, label in report["figure_labels"].items():
        rows.append([f"floor of {label}", *[_figure_cell((s["figures"].get(key) or {}).get("floor")) for s in sizes]])
    out.append(table(["floor p50 ms (p95), per round", *labels], rows))
    out.append("")

    rows = [
        [label, *[_figure_cell(s["parts"].get(key)) for s in sizes]] for key, label in report["part_labels"].items()
    ]
    out.append(table(["floor part p50 ms (p95)", *labels], rows))
    figure_labels = report["figure_labels"]
    for key, parts in report.get("floor_parts", {}).items():
        out.append(f"floor of {figure_labels.get(key, key)} = {' + '.join(parts)}")
    out.append("")

    rows = [
        ["model texts/s (batch, main)", *[s["model_batch"].get("main", {}).get("texts_per_s") for s in sizes]],
        ["model texts/s (batch, English)", *[s["model_batch"].get("english", {}).get("texts_per_s") for s in sizes]],
        ["ingest chunks/s", *[s["ingest"].get("chunks_per_s") for s in sizes]],
        ["ingest model texts/s", *[s["ingest"].get("model_texts_per_s") for s in sizes]],
        ["ingest / model", *[s["ingest"].get("share_of_model") for s in sizes]],
        ["ingest model share", *[s["ingest"].get("embed_share") for s in sizes]],
        ["commit share outside model", *[s["figures"]["commit_turn"].get("outside_model_share") for s in sizes]],
    ]
    out.append(table(["throughput", *labels], rows, digits=2))
    out.append("")

    steps = sorted({k for s in sizes for k in s["figures"]["compose_context"].get("step_share", {})})
    rows = [[step, *[s["figures"]["compose_context"].get("step_share", {}).get(step) for s in sizes]] for step in steps]
    out.append(table(["compose step share", *labels], rows, digits=2))
    if report.get("plot"):
        out.append("")
        out.append(f"plot: {report['plot']}")
    for note in report.get("notes", []):
        out.append(f"note: {note}")
    if criteria:
        out.append("")
        out.extend(criteria_lines(report))
    return "\n".join(out)


def format_scale_backends(by_backend: Mapping[str, Mapping[str, Any]]) -> str:
    """The scale figures of each backend side by side (same data, same models, one run), then every
    backend's PASS / FAIL lines."""
    names = list(by_backend)
    columns = [(b, s) for b in names for s in by_backend[b]["sizes"]]
    headers = ["p50 ms (p95) [x floor p50, p95]", *[f"{b} {_size_label(s)}" for b, s in columns]]
    first = by_backend[names[0]]
    rows: list[list[Any]] = [["memory items", *[s["graph"].get("memory_items") for _, s in columns]]]
    rows.append(["entities", *[s["graph"].get("entities") for _, s in columns]])
    rows.append(["bulk load s (cumulative)", *[s["load"]["cumulative_s"] for _, s in columns]])
    for key, label in first["figure_labels"].items():
        rows.append([label, *[_figure_cell(s["figures"].get(key)) for _, s in columns]])
    rows.append(["ingest chunks/s / model", *[s["ingest"].get("share_of_model") for _, s in columns]])
    out = ["graphbrain at scale on each backend (same data, same models, one run)", table(headers, rows, digits=2), ""]
    for b in names:
        out.extend(criteria_lines(by_backend[b], prefix=f"{b}: "))
    return "\n".join(out)


def criteria_lines(report: Mapping[str, Any], *, prefix: str = "") -> list[str]:
    """One line per criterion: PASS / FAIL (or ``n/a`` when the run cannot say), the figure, its limit."""
    out = []
    for c in report.get("criteria", []):
        verdict = "n/a " if c["ok"] is None else ("PASS" if c["ok"] else "FAIL")
        value = "-" if c["value"] is None else f"{c['value']:.2f}"
        out.append(f"{verdict}  {prefix}{c['text']}: {value} (limit {c['limit']:g}; {c['detail']})")
    return out


def _size_label(size: Mapping[str, Any]) -> str:
    return f"{size['target_items']:,} items"


def _figure_cell(fig: Mapping[str, Any] | None) -> str:
    if not fig or fig.get("p50") is None:
        return "-"
    text = f"{_cell(fig.get('p50'), 1)} ({_cell(fig.get('p95'), 1)})"
    x50, x95 = fig.get("x_p50"), fig.get("x_p95")
    if x50 is not None or x95 is not None:
        text += f" [{_cell(x50, 1)}x, {_cell(x95, 1)}x]"
    return text
