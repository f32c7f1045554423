"""Who calls and in which namespace: bearer tokens (kept as SHA-256 digests) and the per-request Scope."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pydantic import Field, ValidationError

from graphbrain.errors import ConfigError
from graphbrain.interfaces.http.errors import ApiError
from graphbrain.interfaces.http.settings import BoundNamespace, ServerSettings, StrictModel

__all__ = [
    "NAMESPACE_HEADER",
    "Principal",
    "Scope",
    "TokenRegistry",
    "require_admin",
    "resolve_scope",
    "same_namespace",
]

NAMESPACE_HEADER = "X-Graphbrain-Namespace"
NAMESPACE_PATTERN = r"^[A-Za-z0-9_.:\-]{1,128}$"
ANY_NAMESPACE = "*"
MIN_TOKEN_CHARS = 16


@dataclass(frozen=True)
class Principal:
    """Who is calling: a token's label, the namespaces it may use (None: any) and its role."""

    name: str
    namespaces: tuple[str, ...] | None
    admin: bool
    cypher: bool = False  # may run read-only Cypher (admin implies it)

    def allows(self, namespace: str) -> bool:
        return self.namespaces is None or namespace in self.namespaces


@dataclass(frozen=True)
class Scope:
    """One request's resolved caller and namespace; every Brain call gets ``namespace=scope.namespace``."""

    principal: Principal
    namespace: str


@dataclass(frozen=True)
class _TokenEntry:
    digest: bytes
    principal: Principal


def _principal(name: str, namespaces: list[str], admin: bool, cypher: bool) -> Principal:
    bound = None if ANY_NAMESPACE in namespaces else tuple(namespaces)
    return Principal(name=name, namespaces=bound, admin=admin, cypher=admin or cypher)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


class TokenRegistry:
    """The configured tokens, held as SHA-256 digests only."""

    def __init__(self, entries: list[_TokenEntry]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    @classmethod
    def from_settings(cls, settings: ServerSettings, environ: Mapping[str, str]) -> TokenRegistry:
        entries: list[_TokenEntry] = []
        for i, tok in enumerate(settings.tokens):
            if tok.token_sha256 is not None:
                digest = bytes.fromhex(tok.token_sha256)
            else:
                assert tok.token_env is not None  # the model guarantees one source
                secret = environ.get(tok.token_env)
                if not secret:
                    raise ConfigError(
                        f"server.tokens.{i}.token_env: ${tok.token_env} is not set", key=f"server.tokens.{i}.token_env"
                    )
                if len(secret) < MIN_TOKEN_CHARS:
                    raise ConfigError(
                        f"server.tokens.{i}.token_env: ${tok.token_env} holds a token of {len(secret)} characters; "
                        f"a token needs at least {MIN_TOKEN_CHARS}",
                        key=f"server.tokens.{i}.token_env",
                    )
                digest = _digest(secret)
            entries.append(_TokenEntry(digest, _principal(tok.name, tok.namespaces, tok.admin, tok.cypher)))
        entries += cls._from_env(settings.tokens_env, environ)
        return cls(entries)

    @staticmethod
    def _from_env(var: str, environ: Mapping[str, str]) -> list[_TokenEntry]:
        raw = environ.get(var)
        if not raw:
            return []
        # The message names the variable and the position, never the content: it holds secrets.
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ConfigError(f"${var}: not valid JSON (at character {e.pos})", key=var) from None
        if not isinstance(data, list):
            raise ConfigError(f"${var}: must be a JSON list of tokens", key=var)
        out: list[_TokenEntry] = []
        for i, item in enumerate(data):
            try:
                parsed = _EnvToken.model_validate(item)
            except ValidationError as e:
                # pydantic's messages state the rule, never the value (which may be a secret).
                problems = "; ".join(
                    f"{'.'.join(str(p) for p in err['loc']) or 'item'}: {_TOKEN_RULES.get(err['type'], err['msg'])}"
                    for err in e.errors()
                )
                raise ConfigError(f"${var}[{i}]: {problems}", key=var) from None
            out.append(
                _TokenEntry(
                    _digest(parsed.token), _principal(parsed.name, parsed.namespaces, parsed.admin, parsed.cypher)
                )
            )
        return out

    def lookup(self, token: str) -> Principal | None:
        presented = _digest(token)
        found: Principal | None = None
        # Compare against every entry, so the time taken does not tell how far the search went.
        for entry in self._entries:
            if hmac.compare_digest(entry.digest, presented) and found is None:
                found = entry.principal
        return found


_TOKEN_RULES = {
    "string_too_short": f"must be at least {MIN_TOKEN_CHARS} characters (a token is a secret: make it long and random)",
    "string_too_long": "must be at most 4096 characters",
}


class _EnvToken(StrictModel):
    token: str = Field(min_length=MIN_TOKEN_CHARS, max_length=4096)
    namespaces: list[BoundNamespace] = Field(min_length=1)
    admin: bool = False
    cypher: bool = False
    name: str = Field("env-token", min_length=1, max_length=64)


def resolve_scope(
    settings: ServerSettings,
    tokens: TokenRegistry,
    token: str | None,
    namespace: str | None,
    default_namespace: Callable[[], str],
) -> Scope:
    """Who calls (the bearer token) and in which namespace (the header, else the token's first, else the
    brain's): the one check every endpoint — /mcp included — goes through. Raises ApiError."""
    if settings.auth:
        if not token:
            raise ApiError(401, "unauthorized", "a bearer token is required (Authorization: Bearer <token>)")
        principal = tokens.lookup(token)
        if principal is None:
            raise ApiError(401, "unauthorized", "unknown bearer token")
    else:
        # auth off is allowed on loopback only (create_app checks); a local caller may use any namespace.
        principal = Principal(name="anonymous", namespaces=None, admin=False)
    if namespace is not None:
        if not re.fullmatch(NAMESPACE_PATTERN, namespace):
            raise ApiError(
                422,
                "validation_error",
                f"{NAMESPACE_HEADER}: letters, digits and _.:- only, at most 128",
                [{"field": NAMESPACE_HEADER, "reason": "invalid namespace"}],
            )
        chosen = namespace
    elif principal.namespaces:
        chosen = principal.namespaces[0]
    else:
        chosen = default_namespace()
    if not principal.allows(chosen):
        raise ApiError(403, "forbidden", f"this token is not bound to namespace {chosen!r}")
    return Scope(principal=principal, namespace=chosen)


def require_admin(scope: Scope, what: str) -> None:
    if not scope.principal.admin:
        raise ApiError(403, "forbidden", f"{what} needs an admin token")


def same_namespace(given: str | None, scope: Scope, field: str) -> None:
    """A body may repeat the request's namespace but never name another one."""
    if given is not None and given != scope.namespace:
        raise ApiError(
            403,
            "forbidden",
            f"{field} names namespace {given!r}, but this request acts in {scope.namespace!r}",
            [{"field": field, "reason": "differs from the request's namespace"}],
        )
