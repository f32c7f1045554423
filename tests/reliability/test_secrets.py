"""Secrets never logged: the Neo4j password stays out of logs, errors, results, reprs and dumps."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from graphbrain import Brain
from graphbrain.config import load_config
from graphbrain.errors import StoreUnavailable
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[2]
SECRET = "pw-S3cret-do-not-log-9f2"


def _brain(uri: str, tmp_path: Path) -> Brain:
    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.neo4j.uri": uri,
            "storage.neo4j.password": SECRET,
            "storage.data_dir": str(tmp_path / "data"),
            "storage.neo4j.connection_timeout_s": 2,
            "storage.neo4j.max_retry_time_s": 1,
        },
    )
    return Brain(cfg, Neo4jStore(cfg.storage.neo4j))


def test_password_never_in_logs_errors_or_dumps(
    neo4j_uri: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # the driver's own debug logging too
    seen: list[str] = []
    turn = {"turn_id": "t1", "messages": [{"role": "user", "content": "TODO: rotate the keys."}]}

    down = _brain("bolt://127.0.0.1:1", tmp_path / "a")
    pending = down.commit_turn("s", turn)
    assert pending.status == "pending"
    seen.append(pending.model_dump_json())
    with pytest.raises(StoreUnavailable) as err:
        down.compose_context("s", "what is left to do?")
    seen += [str(err.value), repr(err.value)]
    seen += [repr(down.config), str(down.config), down.config.model_dump_json(), str(down.journal_status())]
    down.close()

    # The real server with a wrong password: the refusal names the setting, not the value.
    wrong = _brain(neo4j_uri, tmp_path / "b")
    with pytest.raises(StoreUnavailable, match="credentials") as err:
        wrong.store.run("schema/get_version")
    seen += [str(err.value)]
    wrong.close()

    seen.append(caplog.text)
    assert caplog.text  # something was logged, and none of it is the password
    assert all(SECRET not in s for s in seen)
