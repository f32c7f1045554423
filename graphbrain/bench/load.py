"""Concurrent write load: N writers committing turns at once, and the invariants checked afterwards.

    report = run_load(config_path=None, writers=8, seconds=30, mode="threads")
    print(format_load(report))

Half the writers (the even ones) share one session, the others have a session each, and every turn
talks about the same small cast (people, projects, tools) in English, Chinese or both, with
preferences on a handful of shared keys, so writers contend for the session lock, for entity nodes
of the same canonical name and for the active item of the same ``type+key``. ``mode="threads"``
shares one Brain between threads (how an app server uses it); ``mode="processes"`` gives each writer a
process and a Brain of its own (how several workers on one host use it).

Reported: commits, commits/s, latency p50/p95/max (wall ms per ``commit_turn``), errors by type
(a deadlock the driver could not retry away would show here), pending answers, and the invariants
read back from the graph: sessions whose sequence numbers are not exactly 1..n, canonical names held
by more than one Entity, keys with more than one active item. The run uses a scratch namespace
(``bench-load-<random>``), deleted afterwards unless ``keep``.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from typing import Any

from graphbrain.bench.locomo import delete_namespace, warm_up_models

_PEOPLE = ["Alice", "Bob", "张伟", "李娜"]
_PROJECTS = ["graphbrain", "Atlas", "凤凰"]
_TOOLS = ["Neo4j", "FalkorDB", "Redis"]
_STYLES = [("tabs", "spaces"), ("dark mode", "light mode"), ("Python", "Go")]


def turn_for(writer: int, n: int, run_id: str) -> dict[str, Any]:
    """The n-th turn of a writer: deterministic, bilingual, contending on shared names and keys."""
    person = _PEOPLE[(writer + n) % len(_PEOPLE)]
    project = _PROJECTS[n % len(_PROJECTS)]
    tool = _TOOLS[(writer * 7 + n) % len(_TOOLS)]
    a, b = _STYLES[n % len(_STYLES)]
    style = a if (writer + n) % 2 else b
    lang = (writer + n) % 3
    if lang == 0:
        user = f"{person} and I decided to use {tool} for {project}. I prefer {style}. TODO: benchmark {project}."
    elif lang == 1:
        user = f"我和{person}决定在{project}项目里使用{tool}。我更喜欢{style}。待办：测试{project}的性能。"
    else:
        user = f"{person} says {project} 用 {tool} 就好。I prefer {style}。"
    return {
        "turn_id": f"{run_id}-w{writer}-{n}",
        "messages": [
            {"role": "user", "content": user},
            {"role": "assistant", "content": f"Noted ({n})."},
        ],
    }


def session_for(writer: int) -> str:
    return "load-shared" if writer % 2 == 0 else f"load-w{writer}"


def _write_loop(brain: Any, writer: int, run_id: str, deadline: float) -> dict[str, Any]:
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    n = 0
    start = time.monotonic()
    while time.monotonic() < deadline:
        n += 1
        t0 = time.perf_counter()
        try:
            result = brain.commit_turn(session_for(writer), turn_for(writer, n, run_id))
            statuses[str(result.status)] += 1
        except Exception as e:  # counted and reported: the point of a load test
            errors[f"{type(e).__name__}: {str(e)[:120]}"] += 1
        latencies.append((time.perf_counter() - t0) * 1000)
    elapsed = time.monotonic() - start
    return {"latencies": latencies, "errors": dict(errors), "statuses": dict(statuses), "elapsed": elapsed}


def _process_writer(
    config_path: str | None,
    overrides: dict[str, Any],
    writer: int,
    run_id: str,
    seconds: float,
    barrier: Any,
    out: Any,
) -> None:
    from graphbrain.brain import Brain

    brain = Brain.from_config(config_path, overrides=overrides)
    try:
        warm_up_models(brain)  # the models load before the clock starts
        barrier.wait(timeout=600)
        out.put((writer, _write_loop(brain, writer, run_id, time.monotonic() + seconds)))
    except BaseException as e:  # the parent must hear about a writer that died
        out.put((writer, {"latencies": [], "errors": {f"{type(e).__name__}: {e}": 1}, "statuses": {}}))
    finally:
        brain.close()


def _run_threads(brain: Any, writers: int, seconds: float, run_id: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = [{} for _ in range(writers)]
    barrier = threading.Barrier(writers)

    def worker(i: int) -> None:
        barrier.wait()
        results[i] = _write_loop(brain, i, run_id, time.monotonic() + seconds)

    threads = [threading.Thread(target=worker, args=(i,), name=f"load-writer-{i}") for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def _run_processes(
    config_path: str | None, overrides: dict[str, Any], writers: int, seconds: float, run_id: str
) -> list[dict[str, Any]]:
    ctx = mp.get_context("spawn")  # a fresh interpreter per writer: no driver state forked
    barrier = ctx.Barrier(writers)
    out = ctx.Queue()
    procs = [
        ctx.Process(
            target=_process_writer,
            args=(config_path, overrides, i, run_id, seconds, barrier, out),
            name=f"load-writer-{i}",
        )
        for i in range(writers)
    ]
    for p in procs:
        p.start()
    results: dict[int, dict[str, Any]] = {}
    for _ in procs:
        writer, result = out.get(timeout=600 + seconds * 4)
        results[writer] = result
    for p in procs:
        p.join(timeout=60)
    return [results.get(i, {"latencies": [], "errors": {"writer vanished": 1}, "statuses": {}}) for i in range(writers)]


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def check_invariants(store: Any, namespace: str) -> dict[str, Any]:
    """What must hold after any amount of concurrent writing; every list is empty when it does."""
    counts = store.run("checks/turn_counts", {"namespace": namespace})
    return {
        "seq_gaps": store.run("checks/seq_gaps", {"namespace": namespace}),
        "duplicate_entities": store.run("checks/duplicate_entities", {"namespace": namespace}),
        "double_active": store.run("checks/double_active", {"namespace": namespace}),
        "turns": int(counts[0]["turns"]) if counts else 0,
        "active_items": int(counts[0]["active_items"]) if counts else 0,
    }


def run_load(
    config_path: str | None = None,
    *,
    writers: int = 8,
    seconds: float = 30.0,
    mode: str = "threads",
    namespace: str | None = None,
    keep: bool = False,
    overrides: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the load and return the report (see the module docstring); ``overrides`` are dotted
    config keys applied on top of the config file, in this process and in every writer process."""
    from graphbrain.brain import Brain

    if writers < 1 or seconds <= 0:
        raise ValueError("writers must be >= 1 and seconds > 0")
    if mode not in ("threads", "processes"):
        raise ValueError(f"mode must be 'threads' or 'processes', not {mode!r}")
    ns = namespace or f"bench-load-{uuid.uuid4().hex[:8]}"
    overrides = {**(overrides or {}), "namespace": ns}
    brain = Brain.from_config(config_path, overrides=overrides)
    run_id = uuid.uuid4().hex[:8]
    try:
        delete_namespace(brain.store, ns)
        warm_up_models(brain)  # the models load before the clock starts
        t0 = time.monotonic()
        if mode == "threads":
            results = _run_threads(brain, writers, seconds, run_id)
        else:
            results = _run_processes(config_path, overrides, writers, seconds, run_id)
        wall = time.monotonic() - t0
        # The timed window: from the barrier to the last writer's last answer (process start-up and
        # model loading are outside it).
        window = max((r.get("elapsed", 0.0) for r in results), default=0.0) or wall
        latencies = [x for r in results for x in r["latencies"]]
        errors: Counter[str] = Counter()
        statuses: Counter[str] = Counter()
        for r in results:
            errors.update(r["errors"])
            statuses.update(r["statuses"])
        committed = statuses.get("committed", 0)
        report = {
            "mode": mode,
            "writers": writers,
            "seconds": seconds,
            "wall_s": round(wall, 1),
            "window_s": round(window, 1),
            "namespace": ns,
            "backend": brain.store.backend,
            "cpu_count": os.cpu_count(),
            "calls": len(latencies),
            "committed": committed,
            "statuses": dict(statuses),
            "commits_per_s": round(committed / window, 2) if window else None,
            "latency_ms": {
                "p50": _percentile(latencies, 0.50),
                "p95": _percentile(latencies, 0.95),
                "max": round(max(latencies), 1) if latencies else None,
            },
            "errors": sum(errors.values()),
            "error_kinds": dict(errors),
        }
        inv = check_invariants(brain.store, ns)
        report["invariants"] = inv
        report["ok"] = (
            not report["errors"]
            and not (inv["seq_gaps"] or inv["duplicate_entities"] or inv["double_active"])
            and inv["turns"] == committed
        )
        return report
    finally:
        if not keep:
            delete_namespace(brain.store, ns)
        brain.close()


def format_load(report: dict[str, Any]) -> str:
    inv = report["invariants"]
    lat = report["latency_ms"]
    lines = [
        f"load: {report['writers']} writers ({report['mode']}), {report['seconds']} s, backend {report['backend']},"
        f" {report['cpu_count']} cores",
        f"  commits        {report['committed']}  ({report['commits_per_s']}/s)  statuses {report['statuses']}",
        f"  latency ms     p50 {lat['p50']}  p95 {lat['p95']}  max {lat['max']}",
        f"  errors         {report['errors']}" + "".join(f"\n    {k} x{v}" for k, v in report["error_kinds"].items()),
        f"  turns in graph {inv['turns']}  active items {inv['active_items']}",
        f"  seq gaps {len(inv['seq_gaps'])}  duplicate entities {len(inv['duplicate_entities'])}"
        f"  double-active keys {len(inv['double_active'])}",
    ]
    single = report.get("single_writer")
    if single:
        lines.append(
            f"  one writer, same run: {single['commits_per_s']}/s, p50 {single['latency_ms']['p50']}"
            f" p95 {single['latency_ms']['p95']} ms  →  throughput x{report['throughput_vs_single']},"
            f" p95 x{report['p95_vs_single']}"
        )
    lines.append(f"  {'OK' if report['ok'] else 'FAILED'}")
    return "\n".join(lines)


def main_load(
    config_path: str | None, writers: int, seconds: float, mode: str, as_json: bool, keep: bool, baseline: bool = True
) -> dict[str, Any]:
    """``graphbrain bench load``: with ``baseline``, one writer runs first for as long, so that the N-writer
    figures come with their ratio to a single writer measured in the same run."""
    from graphbrain.bench.report import to_json

    single = run_load(config_path, writers=1, seconds=seconds, mode="threads") if baseline and writers > 1 else None
    report = run_load(config_path, writers=writers, seconds=seconds, mode=mode, keep=keep)
    if single is not None:
        report["single_writer"] = {k: single[k] for k in ("commits_per_s", "latency_ms", "errors", "ok")}
        report["throughput_vs_single"] = _ratio(report["commits_per_s"], single["commits_per_s"])
        report["p95_vs_single"] = _ratio(report["latency_ms"]["p95"], single["latency_ms"]["p95"])
        report["ok"] = report["ok"] and single["ok"]
    print(to_json(report) if as_json else format_load(report))
    return report


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None
