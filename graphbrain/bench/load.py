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

**Pacing** (``think_ms``). By default every client is a closed loop: it calls again the moment its last
call returns. That measures saturation: on a machine of C cores where one client alone keeps about a core
busy (extraction, the models, reranking, and the database beside them), K such clients share C cores, and
latency grows with K / C whatever the code does. Agents are not closed loops: one composes, then waits for
its LLM (seconds), commits, then waits for its user. ``think_ms`` makes each client wait after every call a
time drawn uniformly from [0.5, 1.5] × ``think_ms`` (seeded per client, so clients do not march in
lockstep): N paced clients are N agents. The single-client baselines are paced the same way, so the ratios
compare like with like. Both are worth printing: the closed loop says how much one machine serves, the
paced run what an agent waits under that many neighbours.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import shutil
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from graphbrain.bench.harness import delete_namespace
from graphbrain.bench.http_child import HttpChild, free_port, write_config
from graphbrain.bench.scoring import percentile

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


def question_for(reader: int, n: int) -> str:
    """The n-th question of a reader: about the writers' cast, in English, Chinese or both."""
    person = _PEOPLE[(reader + n) % len(_PEOPLE)]
    project = _PROJECTS[n % len(_PROJECTS)]
    return [
        f"What did {person} and I decide for {project}?",
        f"{project}项目用的是什么数据库？",
        f"Which style do I prefer, and what is still 待办 for {project}?",
    ][(reader + n) % 3]


def _think(rng: random.Random, think_ms: float, deadline: float) -> None:
    """An agent's pause between calls (its LLM, its user): uniform on [0.5, 1.5] × think_ms, never past the end."""
    if think_ms > 0:
        time.sleep(max(0.0, min(rng.uniform(0.5, 1.5) * think_ms / 1000.0, deadline - time.monotonic())))


def _write_loop(brain: Any, writer: int, run_id: str, deadline: float, think_ms: float = 0.0) -> dict[str, Any]:
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    retried = retries = 0
    n = 0
    rng = random.Random(f"writer-{writer}")
    start = time.monotonic()
    while time.monotonic() < deadline:
        n += 1
        before = brain.store.retries()
        t0 = time.perf_counter()
        try:
            result = brain.commit_turn(session_for(writer), turn_for(writer, n, run_id))
            statuses[str(result.status)] += 1
        except Exception as e:  # counted and reported: the point of a load test
            errors[f"{type(e).__name__}: {str(e)[:120]}"] += 1
        latencies.append((time.perf_counter() - t0) * 1000)
        extra = brain.store.retries() - before  # this thread's transactions the driver re-ran
        retried += 1 if extra else 0
        retries += extra
        _think(rng, think_ms, deadline)
    elapsed = time.monotonic() - start
    return {
        "latencies": latencies,
        "errors": dict(errors),
        "statuses": dict(statuses),
        "elapsed": elapsed,
        "retried": retried,
        "retries": retries,
    }


def _read_loop(read: Callable[[str, str], None], reader: int, deadline: float, think_ms: float = 0.0) -> dict[str, Any]:
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    n = 0
    rng = random.Random(f"reader-{reader}")
    while time.monotonic() < deadline:
        n += 1
        t0 = time.perf_counter()
        try:
            read(f"load-reader-{reader}", question_for(reader, n))
        except Exception as e:  # counted and reported, as the writers' are
            errors[f"{type(e).__name__}: {str(e)[:120]}"] += 1
        latencies.append((time.perf_counter() - t0) * 1000)
        _think(rng, think_ms, deadline)
    return {"latencies": latencies, "errors": dict(errors)}


def _process_writer(
    config_path: str | None,
    overrides: dict[str, Any],
    writer: int,
    run_id: str,
    seconds: float,
    barrier: Any,
    out: Any,
    think_ms: float = 0.0,
) -> None:
    from graphbrain import heap
    from graphbrain.brain import Brain

    heap.own_process()  # a spawned writer: its interpreter is the bench's own
    brain = Brain.from_config(config_path, overrides=overrides)
    try:
        brain.warm_up()  # the models load before the clock starts
        barrier.wait(timeout=600)
        out.put((writer, _write_loop(brain, writer, run_id, time.monotonic() + seconds, think_ms)))
    except BaseException as e:  # the parent must hear about a writer that died
        out.put((writer, {"latencies": [], "errors": {f"{type(e).__name__}: {e}": 1}, "statuses": {}}))
    finally:
        brain.close()


def _run_threads(
    brain: Any,
    writers: int,
    seconds: float,
    run_id: str,
    reads: Sequence[Callable[[str, str], None]] = (),
    think_ms: float = 0.0,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Writers (and readers, one per ``reads`` callable) as threads, all released at once."""
    results: list[dict[str, Any]] = [{} for _ in range(writers)]
    read_results: list[dict[str, Any]] = [{} for _ in reads]
    barrier = threading.Barrier(writers + len(reads))

    def writer(i: int) -> None:
        barrier.wait()
        results[i] = _write_loop(brain, i, run_id, time.monotonic() + seconds, think_ms)

    def reader(i: int) -> None:
        barrier.wait()
        read_results[i] = _read_loop(reads[i], i, time.monotonic() + seconds, think_ms)

    threads = [threading.Thread(target=writer, args=(i,), name=f"load-writer-{i}") for i in range(writers)]
    threads += [threading.Thread(target=reader, args=(i,), name=f"load-reader-{i}") for i in range(len(reads))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, read_results


def _run_processes(
    config_path: str | None,
    overrides: dict[str, Any],
    writers: int,
    seconds: float,
    run_id: str,
    think_ms: float = 0.0,
) -> list[dict[str, Any]]:
    ctx = mp.get_context("spawn")  # a fresh interpreter per writer: no driver state forked
    barrier = ctx.Barrier(writers)
    out = ctx.Queue()
    procs = [
        ctx.Process(
            target=_process_writer,
            args=(config_path, overrides, i, run_id, seconds, barrier, out, think_ms),
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


def _latency_ms(values: Sequence[float]) -> dict[str, float | None]:
    """p50 / p95 (``scoring.percentile``: linear between closest ranks) and max, to 0.1 ms."""

    def r(v: float | None) -> float | None:
        return None if v is None else round(v, 1)

    return {"p50": r(percentile(values, 50)), "p95": r(percentile(values, 95)), "max": r(max(values, default=None))}


# The invariant checks (cypher/checks/<name>): each lists what breaks it, and is empty when it holds.
INVARIANTS = ("seq_gaps", "duplicate_entities", "double_active", "active_label")


def check_invariants(store: Any, namespace: str) -> dict[str, Any]:
    """What must hold after any amount of concurrent writing; every list is empty when it does."""
    counts = store.run("checks/turn_counts", {"namespace": namespace})
    return {
        **{name: store.run(f"checks/{name}", {"namespace": namespace}) for name in INVARIANTS},
        "turns": int(counts[0]["turns"]) if counts else 0,
        "active_items": int(counts[0]["active_items"]) if counts else 0,
    }


SEED_TURNS = 24  # committed before the clock starts when there are readers, so compose has memory to find


def _http_reads(brain: Any, overrides: dict[str, Any], http_readers: int, work: Path) -> tuple[Any, list[Any]]:
    """A ``graphbrain serve`` child on the same database and namespace, and one reader callable per
    HTTP reader (each with its own client, as separate agents would be)."""
    import httpx

    from graphbrain.config import find_config

    cfg = brain.config.storage
    settings = {
        **overrides,
        "storage.backend": brain.store.backend,
        "storage.data_dir": str(Path(cfg.data_dir).resolve()),
        "storage.neo4j.uri": cfg.neo4j.uri,
        "storage.neo4j.user": cfg.neo4j.user,
        "storage.neo4j.password": cfg.neo4j.password.get_secret_value(),
        "server.auth": False,
    }
    base = find_config(None)
    write_config(Path(base) if base else None, work / "brain.yml", settings)
    child = HttpChild(work / "brain.yml", free_port(), work / "serve.log")
    try:
        with httpx.Client(timeout=60) as probe:
            child.wait_ready(probe)
    except BaseException:
        child.stop()
        raise

    def make() -> Callable[[str, str], None]:
        client = httpx.Client(timeout=60)

        def read(session: str, text: str) -> None:
            r = client.post(f"{child.url}/v1/compose_context", json={"session_id": session, "user_message": text})
            if r.status_code != 200:
                raise RuntimeError(f"http {r.status_code}: {r.text[:120]}")

        return read

    return child, [make() for _ in range(http_readers)]


def run_load(
    config_path: str | None = None,
    *,
    writers: int = 8,
    seconds: float = 30.0,
    mode: str = "threads",
    readers: int = 0,
    http_readers: int = 0,
    namespace: str | None = None,
    keep: bool = False,
    overrides: dict[str, Any] | None = None,
    think_ms: float = 0.0,
) -> dict[str, Any]:
    """Run the load and return the report (see the module docstring); ``overrides`` are dotted
    config keys applied on top of the config file, in this process and in every writer process.
    ``readers`` compose in-process (threads sharing the writers' Brain), ``http_readers`` through a
    ``graphbrain serve`` child; both only beside thread writers (released with them)."""
    from graphbrain.brain import Brain

    if writers < 0 or readers < 0 or http_readers < 0 or writers + readers + http_readers == 0 or seconds <= 0:
        raise ValueError("writers and readers must be >= 0, at least one of them > 0, and seconds > 0")
    if think_ms < 0:
        raise ValueError("think_ms must be >= 0")
    if mode not in ("threads", "processes"):
        raise ValueError(f"mode must be 'threads' or 'processes', not {mode!r}")
    if (readers or http_readers) and mode != "threads":
        raise ValueError("readers run beside thread writers only (--mode threads): process writers start apart")
    ns = namespace or f"bench-load-{uuid.uuid4().hex[:8]}"
    overrides = {**(overrides or {}), "namespace": ns}
    brain = Brain.from_config(config_path, overrides=overrides)
    run_id = uuid.uuid4().hex[:8]
    child = None
    work = Path(tempfile.mkdtemp(prefix="graphbrain-load-"))
    try:
        delete_namespace(brain.store, ns)
        brain.warm_up()  # the models load before the clock starts
        seeded = 0
        reads: list[Callable[[str, str], None]] = []
        if readers or http_readers:
            for n in range(1, SEED_TURNS + 1):
                brain.commit_turn("load-seed", turn_for(writers + 1, n, run_id))
                seeded += 1

            def inproc(session: str, text: str) -> None:
                brain.compose_context(session, text)

            inproc(f"load-warm-{run_id}", "warm-up question?")  # query plans compile once, untimed
            reads += [inproc] * readers
        if http_readers:
            child, http = _http_reads(brain, overrides, http_readers, work)
            http[0](f"load-warm-{run_id}", "warm-up question?")
            reads += http
        t0 = time.monotonic()
        read_results: list[dict[str, Any]] = []
        if mode == "threads":
            results, read_results = _run_threads(brain, writers, seconds, run_id, reads, think_ms)
        else:
            results = _run_processes(config_path, overrides, writers, seconds, run_id, think_ms)
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
        retried = sum(int(r.get("retried", 0)) for r in results)
        report: dict[str, Any] = {
            "mode": mode,
            "writers": writers,
            "readers": readers,
            "http_readers": http_readers,
            "seconds": seconds,
            "think_ms": think_ms,
            "wall_s": round(wall, 1),
            "window_s": round(window, 1),
            "namespace": ns,
            "backend": brain.store.backend,
            "cpu_count": os.cpu_count(),
            "calls": len(latencies),
            "committed": committed,
            "statuses": dict(statuses),
            "commits_per_s": round(committed / window, 2) if window and writers else None,
            "latency_ms": _latency_ms(latencies),
            # Commits whose transactions the driver re-ran after a transient error (a deadlock, mostly).
            "retried_commits": retried,
            "retries": sum(int(r.get("retries", 0)) for r in results),
            "retried_share": round(retried / len(latencies), 4) if latencies else None,
            "errors": sum(errors.values()),
            "error_kinds": dict(errors),
        }
        if reads:
            composes = [x for r in read_results for x in r["latencies"]]
            read_errors: Counter[str] = Counter()
            for r in read_results:
                read_errors.update(r["errors"])
            report["compose"] = {
                "calls": len(composes),
                "per_s": round(len(composes) / window, 2) if window else None,
                "latency_ms": _latency_ms(composes),
                "errors": sum(read_errors.values()),
                "error_kinds": dict(read_errors),
            }
        # A commit answered "accepted, pending" is memory all the same once the journal replays it (a
        # writer's next commit may already have): every acknowledged turn must be in the graph, once.
        pending = statuses.get("pending", 0)
        if pending and brain.config.storage.journal:
            brain.replay_journal()
        inv = check_invariants(brain.store, ns)
        report["invariants"] = inv
        report["seeded"] = seeded
        report["ok"] = (
            not report["errors"]
            and not report.get("compose", {}).get("errors")
            and invariants_hold(inv)
            and inv["turns"] == committed + pending + seeded
        )
        return report
    finally:
        if child is not None:
            child.stop()
        if not keep:
            delete_namespace(brain.store, ns)
        brain.close()
        shutil.rmtree(work, ignore_errors=True)


def format_load(report: dict[str, Any]) -> str:
    inv = report["invariants"]
    lat = report["latency_ms"]
    readers = report.get("readers", 0) + report.get("http_readers", 0)
    lines = [
        f"load: {report['writers']} writers ({report['mode']}), {report.get('readers', 0)} readers in-process,"
        f" {report.get('http_readers', 0)} over HTTP, {report['seconds']} s, backend {report['backend']},"
        f" {report['cpu_count']} cores, "
        + (
            f"each client pausing {report['think_ms']:g} ms (0.5-1.5x) after each call, as an agent does"
            if report.get("think_ms")
            else "closed loop (each client calls again at once)"
        ),
        f"  commits        {report['committed']}  ({report['commits_per_s']}/s)  statuses {report['statuses']}",
        f"  latency ms     p50 {lat['p50']}  p95 {lat['p95']}  max {lat['max']}",
        f"  retried        {report.get('retried_commits', 0)} of {report['calls']} commits"
        f" ({100 * (report.get('retried_share') or 0):.2f} %), {report.get('retries', 0)} transaction retries",
        f"  errors         {report['errors']}" + "".join(f"\n    {k} x{v}" for k, v in report["error_kinds"].items()),
    ]
    compose = report.get("compose")
    if readers and compose:
        cl = compose["latency_ms"]
        lines.append(
            f"  compose        {compose['calls']} ({compose['per_s']}/s)  p50 {cl['p50']}  p95 {cl['p95']}"
            f"  max {cl['max']}  errors {compose['errors']}"
            + "".join(f"\n    {k} x{v}" for k, v in compose["error_kinds"].items())
        )
    lines += [
        f"  turns in graph {inv['turns']}  active items {inv['active_items']}",
        f"  seq gaps {len(inv['seq_gaps'])}  duplicate entities {len(inv['duplicate_entities'])}"
        f"  double-active keys {len(inv['double_active'])}  Active label wrong {len(inv['active_label'])}",
    ]
    single = report.get("single_writer")
    if single:
        lines.append(
            f"  one writer, same run: {single['commits_per_s']}/s, p50 {single['latency_ms']['p50']}"
            f" p95 {single['latency_ms']['p95']} ms  →  throughput x{report['throughput_vs_single']},"
            f" p95 x{report['p95_vs_single']}"
        )
    alone = report.get("single_reader")
    if alone:
        lines.append(
            f"  one reader alone, same run: compose p50 {alone['latency_ms']['p50']} p95 {alone['latency_ms']['p95']}"
            f" ms  →  p95 under load x{report['compose_p95_vs_single']}"
        )
    lines += [f"  {line}" for line in criteria(report)]
    lines.append(f"  {'OK' if report['ok'] else 'FAILED'}")
    return "\n".join(lines)


def invariants_hold(inv: dict[str, Any]) -> bool:
    """Every invariant list of :func:`check_invariants` (or its count) is empty."""
    return not any(inv[name] for name in INVARIANTS)


def criteria(report: dict[str, Any]) -> list[str]:
    """Issue 19's two load criteria, PASS or FAIL on this run's figures (a report, never an assertion)."""
    inv = report["invariants"]
    clean = invariants_hold(inv)
    out = []
    if report.get("compose_p95_vs_single") is not None:
        x = report["compose_p95_vs_single"]
        errors = report["errors"] + report.get("compose", {}).get("errors", 0)
        ok = x <= 2 and errors == 0 and clean
        out.append(
            f"{'PASS' if ok else 'FAIL'}  compose p95 under load <= 2x one reader's, 0 errors, 0 invariant "
            f"violations: x{x}, {errors} errors, invariants {'clean' if clean else 'broken'}"
        )
    if report.get("p95_vs_single") is not None and not report.get("readers") and not report.get("http_readers"):
        x = report["p95_vs_single"]
        share = 100 * (report.get("retried_share") or 0)
        ok = share < 1 and x <= 3 and report["errors"] == 0 and clean
        out.append(
            f"{'PASS' if ok else 'FAIL'}  writers: deadlock retries on < 1 % of commits and p95 <= 3x one "
            f"writer's: {share:.2f} %, x{x}"
        )
    return out


def main_load(
    config_path: str | None,
    writers: int,
    seconds: float,
    mode: str,
    as_json: bool,
    keep: bool,
    baseline: bool = True,
    readers: int = 0,
    http_readers: int = 0,
    think_ms: float = 0.0,
) -> dict[str, Any]:
    """``graphbrain bench load``: with ``baseline``, one writer alone runs first for as long (and, with
    readers, one in-process reader alone), paced as the others, so that the figures come with their ratio
    to a single client measured in the same run."""
    from graphbrain.bench.report import to_json

    single = (
        run_load(config_path, writers=1, seconds=seconds, mode="threads", think_ms=think_ms)
        if baseline and writers > 1
        else None
    )
    alone = (
        run_load(config_path, writers=0, readers=1, seconds=seconds, think_ms=think_ms)
        if baseline and (readers or http_readers)
        else None
    )
    report = run_load(
        config_path,
        writers=writers,
        seconds=seconds,
        mode=mode,
        keep=keep,
        readers=readers,
        http_readers=http_readers,
        think_ms=think_ms,
    )
    if single is not None:
        report["single_writer"] = {k: single[k] for k in ("commits_per_s", "latency_ms", "errors", "ok")}
        report["throughput_vs_single"] = _ratio(report["commits_per_s"], single["commits_per_s"])
        report["p95_vs_single"] = _ratio(report["latency_ms"]["p95"], single["latency_ms"]["p95"])
        report["ok"] = report["ok"] and single["ok"]
    if alone is not None and "compose" in alone and "compose" in report:
        report["single_reader"] = {k: alone["compose"][k] for k in ("latency_ms", "errors")}
        report["compose_p95_vs_single"] = _ratio(
            report["compose"]["latency_ms"]["p95"], alone["compose"]["latency_ms"]["p95"]
        )
        report["ok"] = report["ok"] and alone["ok"]
    print(to_json(report) if as_json else format_load(report))
    return report


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None
