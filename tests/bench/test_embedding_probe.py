"""The bilingual embedding probe (``graphbrain bench embeddings``) on the real packaged models: the main
model finds a memory in either language from a question in either; the English model is there for
English. A regression here means Chinese or cross-language recall was lost."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from graphbrain.bench.embeddings import PROBE, TASKS
from graphbrain.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_probe_holds_both_languages_and_the_main_model_crosses_them() -> None:
    assert len(PROBE) >= 10 and all(t.en and t.zh and t.ask_en and t.ask_zh for t in PROBE)
    result = CliRunner().invoke(
        main, ["bench", "embeddings", "--config", str(ROOT / "brain.yml"), "--json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    roles = {m["role"]: m for m in report["models"]}
    assert set(roles) == {"main", "english"} and report["tasks"] == list(TASKS)
    main_model = roles["main"]["accuracy"]
    assert all(main_model[t] >= 0.8 for t in TASKS), main_model
    assert roles["english"]["accuracy"]["en→en"] >= 0.9

    text = CliRunner().invoke(main, ["bench", "embeddings", "--config", str(ROOT / "brain.yml")]).output
    assert "top-1 accuracy" in text and "zh→en" in text and "main: local:use-multilingual-int8" in text
