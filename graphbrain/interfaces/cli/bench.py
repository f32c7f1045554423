"""The bench group: ingest, CLI, extraction, embedding, relational, LoCoMo, scale, load and chaos benchmarks."""

from __future__ import annotations

from pathlib import Path

import click

from graphbrain.interfaces.cli.app import choice_option, common, main, open_brain
from graphbrain.interfaces.cli.output import emit, emit_report, pairs
from graphbrain.store.backends import BACKENDS, parse_backends


@main.group()
def bench() -> None:
    """Benchmarks against the configured database (they work in scratch namespaces of their own).

    \b
    Example:
      graphbrain bench ingest seeds/docs
    """


@bench.command("ingest")
@click.argument("path", type=click.Path(exists=True))
@common
def bench_ingest(path: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Ingest throughput of a corpus: chunks per second and the embedding model's share of the time.

    \b
    Example:
      graphbrain bench ingest seeds/docs --json
    """
    from graphbrain.bench.ingest_bench import run_ingest_bench

    with open_brain(config_path, namespace) as brain:
        report = run_ingest_bench(brain, path)
    emit(report, as_json, lambda r: pairs([(str(k), v) for k, v in r.items()]))


@bench.command("cli")
@click.option("--runs", default=3, show_default=True, type=click.IntRange(1, 50), help="Runs per figure (median).")
@common
def bench_cli(runs: int, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Wall time of everyday commands (init, memory list, entity, context) on the embedded backend, each
    a new process, first and second call, with the server stopped by its last user (idle_stop_s 0) and
    kept up between commands (the default), side by side. Uses a scratch data dir.

    \b
    Example:
      graphbrain bench cli --runs 3
    """
    from graphbrain.bench.cli_bench import main_cli_bench

    main_cli_bench(config_path, runs, as_json)


@bench.command("extract")
@click.option(
    "--set",
    "set_path",
    default=None,
    type=click.Path(exists=True),
    help="The labelled set: a directory of .yaml files or one file (default: tests/extraction).",
)
@click.option("--verbose", is_flag=True, help="Also list every difference from the labels.")
@common
def bench_extract(
    set_path: str | None, verbose: bool, config_path: str | None, namespace: str | None, as_json: bool
) -> None:
    """Extraction quality on the labelled set: precision / recall / F1 per language and per type.

    Replays each session of the set through extraction and the retention and entity gates (no
    database), and prints memory-item and entity figures for en, zh and mixed, item F1 per type, the
    entity-type confusion table and any chopped key word, in one run.

    \b
    Example:
      graphbrain bench extract
      graphbrain bench extract --verbose
    """
    from graphbrain.bench.extract import format_report, run_extract_bench
    from graphbrain.config import load_config

    report = run_extract_bench(load_config(config_path), Path(set_path) if set_path else None)
    emit_report(report.as_dict(), as_json, lambda: format_report(report, verbose=verbose))


@bench.command("embeddings")
@common
def bench_embeddings(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """The bilingual probe: top-1 accuracy of each embedding model across English and Chinese.

    Ten topics, each remembered in both languages and asked in both; for the main model and the English
    one (embedding.english): English→English, Chinese→Chinese, each across to the other language, and a
    store holding both. No database is used.

    \b
    Example:
      graphbrain bench embeddings
    """
    from graphbrain.bench.embeddings import format_embedding_probe, run_embedding_probe
    from graphbrain.config import load_config

    report = run_embedding_probe(load_config(config_path))
    emit_report(report, as_json, lambda: format_embedding_probe(report))


@bench.command("relational")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@common
def bench_relational(paths: tuple[str, ...], config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Multi-hop recall through compose_context on hand-written conversations (answers 2-3 hops away).

    Commits each conversation into a fresh namespace and asks its questions; prints recall@10 of the
    chain's turns per language, how often the answer turn is in the first 10, with a path, and the
    filler turns that took an evidence slot. Default: the set in tests/relational/data.

    \b
    Example:
      graphbrain bench relational
      graphbrain bench relational tests/relational/data/zh_platform.yaml
    """
    from graphbrain.bench.relational import format_relational, run_relational

    chosen = list(paths) or sorted(str(p) for p in (Path.cwd() / "tests" / "relational" / "data").glob("*.yaml"))
    if not chosen:
        raise click.UsageError("no conversation given and no tests/relational/data/*.yaml here")
    with open_brain(config_path, namespace) as brain:
        report = run_relational(brain, chosen)
    emit_report(report, as_json, lambda: format_relational(report))


@bench.command("locomo")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--k", "ks", default="5,10,25", show_default=True, help="Comma-separated cut-offs for recall@k.")
@click.option("--out", default=None, type=click.Path(dir_okay=False), help="Also write the JSON report here.")
@click.option(
    "--backends",
    default="",
    help="Comma-separated backends (neo4j,embedded) to run on in turn, with a side-by-side table.",
)
@common
def bench_locomo(
    paths: tuple[str, ...],
    ks: str,
    out: str | None,
    backends: str,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Retrieval quality on LoCoMo conversations: graphbrain vs BM25 / dense / RRF over raw turns.

    Every dialog turn is committed in order into a fresh namespace per conversation (annotations never
    enter memory); recall@k per question category, latency and evidence tokens, side by side.

    \b
    Example:
      graphbrain bench locomo ../shared/data/locomo-dev/26.json ../shared/data/locomo-dev/30.json
      graphbrain bench locomo ../shared/data/locomo-dev/26.json --backends neo4j,embedded
    """
    from graphbrain.bench.locomo import main_locomo

    try:
        chosen = parse_backends(backends)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--backends") from e
    ks_list = [int(k) for k in ks.split(",") if k.strip()]
    main_locomo(config_path, namespace, list(paths), ks_list, as_json, out, chosen)


@bench.command("scale")
@click.option("--items", default="10000,100000", show_default=True, help="Comma-separated memory sizes.")
@click.option(
    "--backends",
    default="",
    help="Comma-separated backends (neo4j,embedded) to run on in turn, with a side-by-side summary.",
)
@click.option(
    "--samples", default=30, show_default=True, type=click.IntRange(1, 10_000), help="Measured rounds per size."
)
@click.option(
    "--cache",
    "cache_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="The bulk loader's vector cache (default: <storage.data_dir>/bench-cache).",
)
@click.option("--ingest/--no-ingest", default=True, show_default=True, help="Also measure ingest of seeds/docs.")
@click.option("--plot", default=None, type=click.Path(dir_okay=False), help="Write a PNG growth plot here.")
@common
def bench_scale(
    items: str,
    backends: str,
    samples: int,
    cache_dir: str | None,
    ingest: bool,
    plot: str | None,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Speed at scale against the floor measured in the same rounds (bare vector and full-text top-k on the
    indexes the retrievers search, the models themselves, a bare write of a commit's nodes), on Neo4j or
    the embedded backend; ends with a PASS / FAIL line per criterion of issue 19.

    \b
    Example:
      graphbrain bench scale --items 2000,10000 --plot scale.png
      graphbrain bench scale --items 10000,100000 --backends neo4j,embedded
    """
    from graphbrain.bench.scale import main_scale, parse_sizes

    try:
        chosen = parse_backends(backends)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--backends") from e
    try:
        sizes = parse_sizes(items)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--items") from e
    main_scale(
        config_path,
        sizes,
        as_json,
        plot,
        backends=chosen,
        samples=samples,
        cache_dir=cache_dir,
        ingest=ingest,
        namespace=namespace,
    )


@bench.command("load")
@click.option("--writers", default=8, show_default=True, type=click.IntRange(0, 256), help="Concurrent writers.")
@click.option(
    "--readers", default=0, show_default=True, type=click.IntRange(0, 256), help="Concurrent in-process composers."
)
@click.option(
    "--http-readers",
    default=0,
    show_default=True,
    type=click.IntRange(0, 256),
    help="Concurrent composers over HTTP (a `graphbrain serve` child on the same database).",
)
@click.option("--seconds", default=30.0, show_default=True, type=click.FloatRange(min=0.1), help="How long.")
@choice_option(
    "--mode", choices=["threads", "processes"], help="Threads sharing one Brain, or a process (and Brain) per writer."
)
@click.option(
    "--think-ms",
    default=0.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Each client pauses this long (0.5-1.5x, seeded) after each call, as an agent waits for its LLM "
    "and its user; 0 is a closed loop, which measures the machine's saturation.",
)
@click.option("--keep", is_flag=True, help="Keep the scratch namespace afterwards.")
@click.option(
    "--baseline/--no-baseline",
    default=True,
    show_default=True,
    help="First run one writer for as long, and report the N-writer figures as ratios to it.",
)
@common
def bench_load(
    writers: int,
    readers: int,
    http_readers: int,
    seconds: float,
    mode: str,
    think_ms: float,
    keep: bool,
    baseline: bool,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Concurrent commit_turn load (and compose_context readers): commits/s, p50/p95, retried commits,
    errors, then the invariants read back.

    Half the writers share a session; all contend on the same entity names and preference keys. Readers
    compose questions about the same cast while the writers commit; their p95 is reported beside one
    reader's alone.
    Exits 1 when any call failed or an invariant broke (sequence gap, duplicate entity, two active
    items for one key).

    \b
    Example:
      graphbrain bench load --writers 8 --seconds 30
      graphbrain bench load --writers 8 --seconds 30 --mode processes --json
      graphbrain bench load --readers 8 --writers 2 --seconds 20
      graphbrain bench load --readers 4 --http-readers 4 --writers 2
      graphbrain bench load --readers 8 --writers 2 --think-ms 2000   # agents, each waiting for its LLM
    """
    from graphbrain.bench.load import main_load

    if writers + readers + http_readers == 0:
        raise click.UsageError("nothing to run: give --writers, --readers or --http-readers")
    report = main_load(config_path, writers, seconds, mode, as_json, keep, baseline, readers, http_readers, think_ms)
    if not report["ok"]:
        raise SystemExit(1)


@bench.command("chaos")
@click.option("--cycles", default=20, show_default=True, type=click.IntRange(1, 1000), help="Database kills.")
@choice_option("--backend", choices=BACKENDS)
@click.option("--port", default=7691, show_default=True, type=int, help="Bolt port of the bench's own Neo4j.")
@click.option("--seed", default=None, type=int, help="Random seed for the kill times.")
@common
def bench_chaos(
    cycles: int,
    backend: str,
    port: int,
    seed: int | None,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """SIGKILL a database of the bench's own at random moments under writers (in-process and HTTP), readers
    and test-suite-like churn, then check every acknowledged turn: lost, duplicated, out of order, reader
    errors by kind, recovery times. Exits 1 unless all hold.

    \b
    Example:
      graphbrain bench chaos --cycles 20 --backend embedded
      graphbrain bench chaos --cycles 20 --backend neo4j --port 7691
    """
    from graphbrain.bench.chaos import main_chaos

    report = main_chaos(config_path, backend, cycles, port, seed, as_json)
    if not report["ok"]:
        raise SystemExit(1)
