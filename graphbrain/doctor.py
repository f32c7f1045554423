"""`graphbrain doctor`: one line per check, ok or what to do."""

from __future__ import annotations

from typing import Any

from graphbrain.config import load_config
from graphbrain.errors import GraphbrainError
from graphbrain.store import SCHEMA_VERSION, open_store


def run_checks(config_path: str | None, namespace: str | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(check: str, ok: bool, detail: str) -> None:
        out.append({"check": check, "ok": ok, "detail": detail})

    try:
        cfg = load_config(config_path, overrides={"namespace": namespace} if namespace else None)
        add("config", True, f"valid (fingerprint {cfg.fingerprint()})")
    except GraphbrainError as e:
        add("config", False, str(e))
        return out
    store = open_store(cfg.storage)
    db = store.backend  # the check's name: "neo4j" or "embedded"
    try:
        if not store.ping():
            add(db, False, f"{store.target} does not answer: {store.unreachable_fix}")
            return out
        info = store.server_info()
        version = str(info.get("version", "?"))
        add(db, store.supported_server(info), f"{info.get('name')} {version} {info.get('edition')}")
        v = store.schema_version()
        if v is None and store.schema_on_first_use:
            add("schema", True, "none yet: created on first use (or by `graphbrain init`)")
        else:
            add(
                "schema",
                v == SCHEMA_VERSION,
                f"version {v}" if v == SCHEMA_VERSION else f"version {v}, need {SCHEMA_VERSION}: run `graphbrain init`",
            )
            idx = store.index_status()
            offline = [i["name"] for i in idx if i.get("state") != "ONLINE"]
            add(
                "indexes",
                not offline and bool(idx),
                f"{len(idx)} ONLINE" if not offline else f"not ONLINE: {', '.join(offline)}: run `graphbrain init`",
            )
            stale = store.run("admin/stale_documents", {"namespace": namespace})
            add(
                "documents",
                not stale,
                "none stale"
                if not stale
                else "a failed re-ingest left these stale, ingest them again: "
                + ", ".join(f"{r['source_uri']} ({r['namespace']})" for r in stale),
            )
    except GraphbrainError as e:
        add(db, False, str(e))
    finally:
        store.close()
    try:
        from graphbrain.embedding import get_embedder

        emb = get_embedder(cfg.embedding)
        emb.embed(["doctor"])
        add("embedding", True, f"{emb.name} dim {emb.dim}")
    except Exception as e:  # the check reports any failure as a line
        add("embedding", False, f"{e}")
    try:
        from graphbrain.nlp import get_pipeline

        for lang in ("en", "zh"):
            nlp = get_pipeline(lang, cfg.nlp)
            add(f"spacy:{lang}", True, f"{getattr(cfg.nlp, lang)} ({', '.join(nlp.pipe_names) or 'tokenizer'})")
    except Exception as e:
        add("spacy", False, f"{e}")
    return out
