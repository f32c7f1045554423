"""`graphbrain demo` works in a namespace of its own and never deletes what a user wrote unasked."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from admin_world import turn
from click.testing import CliRunner

from graphbrain import Brain
from graphbrain.demo import DEMO_NAMESPACE, run
from graphbrain.errors import InputError
from graphbrain.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _sessions(brain: Brain) -> set[str]:
    rows = brain.store.cypher(
        "MATCH (s:Session) WHERE s.namespace = $namespace RETURN s.session_id AS sid", {"namespace": brain.namespace}
    ).rows
    return {r["sid"] for r in rows}


def test_demo_refuses_to_clear_a_namespace_holding_user_data(brain: Brain) -> None:
    brain.commit_turn("mine", turn("t1", "We decided to keep invoices for ten years. 发票保存十年。"))
    lines: list[str] = []
    asked: list[str] = []

    def no(question: str) -> bool:
        asked.append(question)
        return False

    with pytest.raises(InputError, match="did not write") as e:
        run(brain, lines.append, confirm=no)
    assert "--yes" in str(e.value) and "'demo'" in str(e.value)
    assert asked and "1 sessions" in asked[0]
    assert _sessions(brain) == {"mine"}, "nothing may be deleted when the user says no"
    assert brain.list_memory(types=["decisions"])

    report = run(brain, lines.append, confirm=lambda _q: True)  # a yes at the prompt
    assert _sessions(brain) == {report["session_id"]}
    assert any("cleared everything in it" in line for line in lines)


def test_demo_reruns_clear_only_the_previous_demo(brain: Brain) -> None:
    lines: list[str] = []
    first = run(brain, lines.append)
    assert lines[0].endswith("(empty: nothing to clear)")
    assert first["contexts"] and first["namespace"] == brain.namespace
    lines.clear()
    run(brain, lines.append)  # its own data only: cleared without asking
    assert "cleared the previous demo run" in lines[0]
    assert _sessions(brain) == {first["session_id"]}
    docs = brain.store.cypher(
        "MATCH (d:Document)-[:TAGGED]->(t:Tag) WHERE d.namespace = $namespace RETURN DISTINCT t.name AS tag",
        {"namespace": brain.namespace},
    ).rows
    assert [r["tag"] for r in docs] == ["graphbrain-demo"]


def test_demo_cli_uses_its_own_namespace(brain: Brain, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Without --namespace the demo runs in 'demo': the configured namespace (the user's) is untouched."""
    brain.commit_turn("mine", turn("t1", "We decided to keep invoices for ten years."))
    doc = yaml.safe_load((ROOT / "brain.yml").read_text(encoding="utf-8"))
    doc["namespace"] = brain.namespace
    env = {"GRAPHBRAIN_NAMESPACE": brain.namespace}
    if brain.store.backend == "embedded":
        doc["storage"].update(backend="embedded", data_dir=str(brain.config.storage.data_dir), journal=False)
    else:
        env["NEO4J_URI"] = request.getfixturevalue("neo4j_uri")
    config = tmp_path / "brain.yml"
    config.write_text(yaml.safe_dump(doc), encoding="utf-8")
    help_text = CliRunner().invoke(main, ["demo", "--help"]).output
    assert "namespace 'demo'" in help_text and "clears" in help_text and "--yes" in help_text
    result = CliRunner().invoke(main, ["demo", "--config", str(config)], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"namespace {DEMO_NAMESPACE!r}")
    assert _sessions(brain) == {"mine"}
    demo = Brain(brain.config.model_copy(update={"namespace": DEMO_NAMESPACE}), brain.store)
    assert _sessions(demo) == {"demo-graphbrain"}
    demo.forget(whole_namespace=True)
