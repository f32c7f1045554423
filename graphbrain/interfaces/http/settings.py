"""brain.yml's ``server:`` section: where the HTTP service listens, its tokens and limits."""

from __future__ import annotations

import os
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from graphbrain.config import find_config
from graphbrain.errors import ConfigError, format_validation_errors

__all__ = [
    "DEFAULT_TOKENS_ENV",
    "BoundNamespace",
    "ServerSettings",
    "StrictModel",
    "TokenConfig",
    "load_server_settings",
]

DEFAULT_TOKENS_ENV = "GRAPHBRAIN_TOKENS"


class StrictModel(BaseModel):
    """A model that refuses unknown fields: a typo in brain.yml or a request body is an error, not a no-op."""

    model_config = ConfigDict(extra="forbid")


# A namespace a token is bound to, or "*" for any.
BoundNamespace = Annotated[str, Field(pattern=r"^(\*|[A-Za-z0-9_.:\-]{1,128})$")]


class TokenConfig(StrictModel):
    """One bearer token: where its secret comes from, which namespaces it may use, whether it is admin."""

    name: str = Field("token", min_length=1, max_length=64, description="A label for logs; never the secret.")
    token_env: str | None = Field(None, description="Environment variable that holds the token.")
    token_sha256: str | None = Field(None, pattern=r"^[0-9a-fA-F]{64}$", description="Hex SHA-256 of the token.")
    namespaces: list[BoundNamespace] = Field(min_length=1)
    admin: bool = False
    # Read-only Cypher sees the whole database (Neo4j Community has no per-namespace access control), so
    # it is a grant of its own, for tokens trusted with every namespace; admin tokens have it.
    cypher: bool = False

    @model_validator(mode="after")
    def _one_source(self) -> TokenConfig:
        if (self.token_env is None) == (self.token_sha256 is None):
            raise ValueError("give exactly one of token_env and token_sha256")
        return self


class ServerSettings(StrictModel):
    """brain.yml ``server:``: where the service listens and who may call it."""

    host: str = "127.0.0.1"
    port: int = Field(8765, ge=0, le=65535)
    max_body_bytes: int = Field(1024 * 1024, ge=1024, le=1024 * 1024 * 1024)
    # false is honoured only on a loopback host (create_app refuses it elsewhere).
    auth: bool = True
    tokens: list[TokenConfig] = Field(default_factory=list)
    # An environment variable holding a JSON list of {"token", "namespaces", "admin", "name"}.
    tokens_env: str = DEFAULT_TOKENS_ENV
    cypher_row_cap: int = Field(1000, ge=1, le=100_000)
    # Non-admin URL ingest may not reach loopback, private or link-local addresses (no SSRF into the LAN).
    allow_private_urls: bool = False
    ui: bool = True
    # The MCP tools over streamable HTTP at /mcp, behind the same tokens (each call in its token's
    # namespace; cypher_read listed only for tokens with the cypher grant).
    mcp: bool = True


def load_server_settings(config_path: str | os.PathLike[str] | None = None) -> ServerSettings:
    """Read the ``server:`` section of brain.yml (the file ``load_config`` would pick), or the defaults."""
    file = find_config(config_path)
    section: Any = {}
    if file is not None and file.is_file():
        try:
            loaded = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise ConfigError(f"{file}: not valid YAML: {e}", file=str(file)) from e
        section = loaded.get("server", {}) if isinstance(loaded, dict) else {}
    try:
        return ServerSettings.model_validate(section or {})
    except ValidationError as e:
        msg, errors = format_validation_errors(e, "server")
        raise ConfigError(f"{file or '<defaults>'}: {msg}", file=str(file), key=errors[0]["field"]) from e
