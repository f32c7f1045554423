"""The CLI as a new user meets it: forget and show take an item the same way, items show their text,
traces read as tables (never escaped Chinese), ingest reports what it skipped in full and exits 0 when
something was ingested."""

from __future__ import annotations

import json
from pathlib import Path

from admin_world import turn
from test_admin_cli import Cli, cli, data  # noqa: F401 (cli is a fixture)

from graphbrain import Brain

DECISION = "We decided to use reciprocal rank fusion for hybrid search, because it needs no score calibration at all."
DECISION_ZH = "我们决定用倒数排名融合来合并混合检索的结果，因为它完全不需要校准分数。"


def _decisions(brain: Brain) -> list[dict[str, object]]:
    return brain.list_memory(types=["decisions"])


def test_forget_takes_the_key_as_an_argument_like_show(cli: Cli, brain: Brain) -> None:  # noqa: F811
    brain.commit_turn("s1", turn("t1", DECISION))
    brain.commit_turn("s1", turn("t2", DECISION_ZH))
    items = _decisions(brain)
    assert len(items) == 2
    by_key, by_id = items[0], items[1]
    assert data(cli("memory", "show", str(by_key["key"])))["item"]["id"] == by_key["id"]
    out = data(cli("memory", "forget", str(by_key["key"]), "--yes"))
    assert out["found"] and out["target"] == {"key": by_key["key"]}
    out = data(cli("memory", "forget", str(by_id["id"]), "--yes"))
    assert out["found"] and out["target"] == {"item_id": by_id["id"]}
    assert _decisions(brain) == []
    both = cli("memory", "forget", "decision:x:y", "--key", "decision:x:z", "--yes", ok=False)
    assert both.exit_code == 1 and "exactly one of ID|KEY" in both.stderr


def test_items_show_their_text_not_their_storage_head(cli: Cli, brain: Brain) -> None:  # noqa: F811
    brain.commit_turn("s1", turn("t1", DECISION + " Neo4j stays our store."))
    brain.commit_turn("s1", turn("t2", DECISION_ZH + " Neo4j 继续做存储。"))
    listed = cli("memory", "list", "--type", "decisions", as_json=False).stdout
    assert "needs no score calibration" in listed and "倒数排名融合来合并混合检索的结果" in listed
    assert "[decisions:" not in listed
    key = str(_decisions(brain)[0]["key"])
    shown = cli("memory", "show", key, as_json=False).stdout
    text_line = next(line for line in shown.splitlines() if line.startswith("text:"))
    assert "[decisions:" not in text_line
    entity = cli("entity", "Neo4j", as_json=False).stdout
    assert "[decisions:" not in entity
    assert "needs no score calibration" in entity or "倒数排名融合" in entity


def test_traces_show_is_a_table_and_never_escapes(cli: Cli, brain: Brain) -> None:  # noqa: F811
    brain.commit_turn("s1", turn("t1", DECISION_ZH))
    package = brain.compose_context("s1", "我们用什么融合检索结果？")
    human = cli("traces", "show", package.context_id, as_json=False).stdout
    assert "\\u" not in human and "我们用什么融合检索结果" in human
    for title in ("queries", "evidence", "dropped", "slots"):
        assert f"\n{title}\n" in human, human[:2000]
    assert len(human.splitlines()) < 150
    raw = cli("traces", "show", package.context_id).stdout
    assert "\\u" not in raw and "融合" in raw
    assert json.loads(raw)["kind"] == "context"


def test_ingest_reports_skipped_files_in_full_and_exits_0(cli: Cli, tmp_path: Path) -> None:  # noqa: F811
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nNeo4j runs the memory store.\n", encoding="utf-8")
    (docs / "b.md").write_text("# 乙\n\n检索用倒数排名融合。\n", encoding="utf-8")
    (docs / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    res = cli("ingest", str(docs), as_json=False, ok=False)
    assert res.exit_code == 0, res.output
    assert "2 created" in res.stdout
    assert "logo.png: unsupported format '.png' (supported: Markdown" in res.stderr
    assert "…" not in res.stderr  # the reason in full
    strict = cli("ingest", str(docs), "--strict", as_json=False, ok=False)
    assert strict.exit_code == 1
    only_bad = tmp_path / "bad"
    only_bad.mkdir()
    (only_bad / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert cli("ingest", str(only_bad), as_json=False, ok=False).exit_code == 1
    missing = cli("ingest", str(tmp_path / "nope.md"), as_json=False, ok=False)
    assert missing.exit_code == 1 and "--manual" in missing.stderr and "source_type" not in missing.stderr
