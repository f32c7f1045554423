"""A small namespace with everything a backup must carry, written through the public API.

Bilingual turns (a preference that is superseded, a decision, tasks, a retraction, a tool call, a ref),
two summary versions (summaries every 2 turns), commit traces, a context trace, a document with tags
and a topic (English and Chinese). Also run as a script it writes the schema fixture:

    .venv/bin/python tests/backup_world.py tests/fixtures/backup-v2.gbk   # on the embedded backend
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

TURNS: list[list[dict[str, Any]]] = [
    [
        {"role": "user", "content": "We decided to use Neo4j 5.26 for the memory store. I prefer tabs."},
        {"role": "assistant", "content": "Noted: Neo4j, tabs."},
    ],
    [
        {"role": "user", "content": "我更喜欢用空格缩进。待办：给张伟写 graphbrain 的迁移文档。"},
        {"role": "assistant", "content": "好的。"},
    ],
    [
        {
            "role": "user",
            "content": "TODO: benchmark the FalkorDB backend with Alice. Look at https://falkordb.com/docs",
        },
        {
            "role": "assistant",
            "content": "Running the bench.",
            "tool_calls": [{"id": "call-1", "name": "bench", "args": {"backend": "falkordb"}}],
        },
        {"role": "tool", "tool_call_id": "call-1", "content": "p95 12 ms", "status": "ok"},
    ],
    [
        {"role": "user", "content": "No, that's wrong: forget the FalkorDB benchmark. Alice 负责检索模块。"},
        {"role": "assistant", "content": "Removed it."},
    ],
]
REFS = {2: [{"type": "url", "uri": "https://docs.falkordb.com/cypher/", "title": "FalkorDB Cypher"}]}
SUMMARY_EVERY = {"policies.retention.summarize_after_turns": 2}


def seed(brain: Any, session: str = "s1") -> None:
    for i, messages in enumerate(TURNS):
        brain.commit_turn(session, {"turn_id": f"t{i}", "messages": messages, "refs": REFS.get(i, [])})
    brain.ingest(ROOT / "seeds" / "docs" / "mixed-notes.md", tags=["design", "设计"], topics=["memory"])
    brain.compose_context(session, "What did we decide for the memory store? 缩进用什么?")


def main(out: str) -> None:
    from graphbrain import Brain
    from graphbrain.store.backup import main_backup

    data = tempfile.mkdtemp(prefix="gb-fixture-")
    # main_backup reads its config from the file and the environment: the same embedded data dir.
    os.environ.update(GRAPHBRAIN_DATA_DIR=data, GRAPHBRAIN_STORAGE_BACKEND="embedded", GRAPHBRAIN_NAMESPACE="fixture")
    os.environ.pop("NEO4J_URI", None)
    with Brain.from_config(ROOT / "brain.yml", overrides=SUMMARY_EVERY) as brain:
        seed(brain)
    print(main_backup(str(ROOT / "brain.yml"), "fixture", out).summary())
    from graphbrain.store.falkordb_store import EmbeddedServer, EmbeddedSettings

    EmbeddedServer(EmbeddedSettings(data_dir=Path(data)))._shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
