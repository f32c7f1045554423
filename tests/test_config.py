"""brain.yml validation: every error names the file, the dotted key and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphbrain.config import BrainConfig, load_config
from graphbrain.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "brain.yml"
    p.write_text(text, encoding="utf-8")
    return p


def test_documented_default_equals_code_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("NEO4J_URI", "NEO4J_PASSWORD", "NEO4J_USER", "GRAPHBRAIN_NAMESPACE", "GRAPHBRAIN_EMBEDDED_IDLE_STOP_S"):
        monkeypatch.delenv(var, raising=False)
    loaded = load_config(ROOT / "brain.yml")
    assert loaded.model_copy(update={"server": {}}) == BrainConfig()
    from graphbrain.interfaces.http import ServerSettings, load_server_settings

    assert load_server_settings(ROOT / "brain.yml") == ServerSettings()


def test_seed_defaults() -> None:
    p = BrainConfig().policies
    assert p.retention.summarize_after_turns == 12
    assert (p.retention.entity_gate.window_turns, p.retention.entity_gate.freq_threshold) == (20, 2)
    assert (p.retention.confidence.user_asserted, p.retention.confidence.tool_derived) == (0.8, 0.9)
    assert p.retention.confidence.inferred == 0.6
    assert p.retrieval.enable_resource_retrieval == "auto"
    assert (p.retrieval.top_k, p.retrieval.candidate_k) == (30, 200)
    assert p.retrieval.query_expansion.enabled and p.retrieval.query_expansion.max_queries == 8
    c = p.composition
    assert (c.token_limit, c.system_blocks_max_tokens, c.summary_max_tokens) == (8192, 800, 600)
    assert (c.recent_turns_max, c.evidence_max_items, c.max_snippet_chars) == (8, 12, 800)
    assert (c.diversity.by_document, c.diversity.by_source_uri) == (3, 2)
    assert c.diversity.memory_resource_ratio == "40/60"
    o = p.observability
    assert o.trace and o.store_plans and o.store_contexts


def test_unknown_key_names_file_and_dotted_key(tmp_path: Path) -> None:
    f = write(tmp_path, "policies:\n  retention:\n    summarise_after_turns: 3\n")
    with pytest.raises(ConfigError) as e:
        load_config(f, use_env=False)
    assert str(f) in str(e.value)
    assert "policies.retention.summarise_after_turns" in str(e.value)
    assert "unknown key" in str(e.value)
    assert e.value.key == "policies.retention.summarise_after_turns"


def test_wrong_type(tmp_path: Path) -> None:
    f = write(tmp_path, "policies:\n  composition:\n    token_limit: lots\n")
    with pytest.raises(ConfigError, match=r"policies\.composition\.token_limit: .*integer"):
        load_config(f, use_env=False)


def test_out_of_range(tmp_path: Path) -> None:
    f = write(tmp_path, "policies:\n  retention:\n    confidence:\n      inferred: 1.5\n")
    with pytest.raises(ConfigError, match=r"policies\.retention\.confidence\.inferred: .*less than or equal"):
        load_config(f, use_env=False)


def test_bad_ratio(tmp_path: Path) -> None:
    f = write(tmp_path, "policies:\n  composition:\n    diversity:\n      memory_resource_ratio: '70/20'\n")
    with pytest.raises(ConfigError, match="memory_resource_ratio"):
        load_config(f, use_env=False)


def test_bad_yaml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(write(tmp_path, "policies: [unclosed\n"), use_env=False)
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.yml")


def test_environment_overrides_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = write(tmp_path, "storage:\n  neo4j:\n    password: from-file\n    uri: bolt://file:7687\n")
    monkeypatch.setenv("NEO4J_PASSWORD", "from-env")
    monkeypatch.delenv("NEO4J_URI", raising=False)
    cfg = load_config(f)
    assert cfg.storage.neo4j.password.get_secret_value() == "from-env"
    assert cfg.storage.neo4j.uri == "bolt://file:7687"


def test_fingerprint_excludes_password_and_tracks_policies() -> None:
    a = BrainConfig()
    b = BrainConfig.model_validate({"storage": {"neo4j": {"password": "other"}}})
    c = BrainConfig.model_validate({"policies": {"composition": {"recent_turns_max": 2}}})
    assert a.fingerprint() == b.fingerprint()
    assert a.fingerprint() != c.fingerprint()


def test_backend_auto_is_embedded_without_a_server_and_neo4j_with_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    assert load_config(ROOT / "brain.yml").storage.backend == "embedded"
    assert BrainConfig.model_validate({}).storage.backend == "embedded"
    uri = load_config(ROOT / "brain.yml", overrides={"storage.neo4j.uri": "bolt://db:7687"}).storage
    assert uri.backend == "neo4j"
    assert (
        load_config(
            ROOT / "brain.yml", overrides={"storage.backend": "embedded", "storage.neo4j.uri": "bolt://x:1"}
        ).storage.backend
        == "embedded"
    )
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:7687")
    assert load_config(ROOT / "brain.yml").storage.backend == "neo4j"
