"""The Cypher console: a user's own Cypher, read-only unless asked, capped and timed out.

    run_cypher(store, "acme", "MATCH (m:Memory {namespace: $namespace}) RETURN m.key LIMIT 5", {})

Read-only means a READ access-mode transaction: the server itself refuses any write in it, so no
parsing of the text is needed (or trusted) to keep it read-only; a write attempt raises
ReadOnlyViolation. ``write=True`` runs a write transaction: the CLI asks for ``--write``, and the HTTP
service allows it to admin tokens only. ``$namespace`` is always set to the caller's scope so queries
can (and should) filter on it; a ``namespace`` parameter of a different value is refused rather than
silently replaced. Values reach the query only as parameters.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from graphbrain.admin.memory import require_namespace
from graphbrain.contracts import check_json, check_text
from graphbrain.errors import InputError
from graphbrain.store import CypherResult, Store

__all__ = ["MAX_CYPHER_CHARS", "MAX_ROW_CAP", "MAX_TIMEOUT_S", "run_cypher"]

MAX_CYPHER_CHARS = 100_000
MAX_ROW_CAP = 100_000
MAX_TIMEOUT_S = 600.0
MAX_PARAMS = 256


def run_cypher(
    store: Store,
    namespace: str,
    text: str,
    params: Mapping[str, Any] | None = None,
    *,
    write: bool = False,
    row_cap: int = 1000,
    timeout_s: float = 30,
) -> CypherResult:
    """Run ``text`` with ``params`` (plus ``$namespace``) and return its columns and at most ``row_cap``
    rows (``truncated`` says when there were more)."""
    require_namespace(namespace)
    if not isinstance(text, str) or not text.strip():
        raise InputError("query: the Cypher text is empty", [{"field": "query", "reason": "empty"}])
    if len(text) > MAX_CYPHER_CHARS or "\x00" in text:
        reason = f"at most {MAX_CYPHER_CHARS} characters and no NUL characters"
        raise InputError(f"query: {reason}", [{"field": "query", "reason": reason}])
    if isinstance(row_cap, bool) or not isinstance(row_cap, int) or not 1 <= row_cap <= MAX_ROW_CAP:
        raise InputError(f"row_cap: an integer from 1 to {MAX_ROW_CAP}")
    if (
        isinstance(timeout_s, bool)
        or not isinstance(timeout_s, int | float)
        or not math.isfinite(timeout_s)
        or not 0 < timeout_s <= MAX_TIMEOUT_S
    ):
        raise InputError(f"timeout_s: a number of seconds above 0, at most {MAX_TIMEOUT_S:.0f}")
    if params is not None and not isinstance(params, Mapping):
        raise InputError("params: must be a mapping of parameter names to values")
    given = dict(params or {})
    if len(given) > MAX_PARAMS:
        raise InputError(f"params: at most {MAX_PARAMS} parameters")
    for name in given:
        if not isinstance(name, str) or not name or not name.isidentifier():
            raise InputError(f"params: {name!r} is not a parameter name (letters, digits, underscores)")
    if "namespace" in given and given["namespace"] != namespace:
        raise InputError(
            "params.namespace: $namespace is always the caller's scope "
            f"({namespace!r}); choose the namespace with --namespace instead"
        )
    check_text(text, "query")
    check_json(given, "params")  # a lone surrogate in a value would fail inside the driver
    given["namespace"] = namespace
    return store.cypher(text, given, write=bool(write), row_cap=row_cap, timeout_s=float(timeout_s))
