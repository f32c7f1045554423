"""Memory administration: list items, show one with its history and provenance, forget.

    list_memory(store, "acme", types=["decisions"], key_prefix="decision:graphbrain:")
    show_memory(store, "acme", "decision:graphbrain:memory-store")   # an item id or a key
    forget(store, "acme", key="pref:style:indentation")

``forget`` removes everything its target owns: nodes, edges and, with the nodes, their full-text and
vector index entries (Neo4j indexes follow the nodes they cover).

* an item (``item_id`` or ``key``): every version of its key, their edges (MENTIONS, DERIVED_FROM and the
  SUPERSEDES / VERSION_OF / RETRACTS history), the key's ``MemoryKey`` lock node, and the entities the
  versions mentioned that nothing else mentions any more. Forgetting an entity also drops its name from
  the turns' entity-gate windows, so its next mention does not re-create it at once.
* a session: its Session, Turns, Messages, ToolCalls, the Refs only its turns referenced, its Summaries,
  CommitTraces and ContextTraces, the memory items derived only from its turns, and the entities left
  with no mention. A key that loses its active version this way gets back the newest version the session
  had replaced or retracted, so it reads as if the session had never happened.
* a namespace: every node carrying the namespace.

Forgetting an item (or the items a session derived) also removes it from what was distilled from it
elsewhere in the namespace: the working summaries that list it are rewritten without its lines (every
version of them), the commit traces that report it are rewritten without its entries, and the context
traces that served it are deleted (what compose served is not rewritten after the fact). The raw turn it
came from stays (forget the session to remove that too).

Deletes run in batches (``FORGET_BATCH`` nodes of a kind per transaction: a big session must not become
one huge transaction), each batch a named query repeated until it deletes nothing. Every batch is
complete on its own (a turn goes with its messages, tool calls and the orphans it leaves), so an
interrupted forget leaves a consistent graph and running it again finishes the job.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from graphbrain.commit.consolidate import drop_summary_lines, summary_lines_of
from graphbrain.contracts import KEY_PREFIX, MemoryType, check_text, validate_namespace
from graphbrain.errors import InputError
from graphbrain.store import Row, Store, Tx

__all__ = [
    "FORGET_BATCH",
    "MAX_LIST_LIMIT",
    "MEMORY_STATUSES",
    "NotFoundError",
    "forget",
    "list_memory",
    "memory_types",
    "show_memory",
]

MEMORY_STATUSES = ("active", "superseded", "retracted")
# Counted by forget besides deletions: what it rewrote without the forgotten item.
REWRITTEN = ("summaries_rewritten", "commit_traces_rewritten")
MAX_LIST_LIMIT = 1000
MAX_REF_CHARS = 1024
FORGET_BATCH = 500

# "decision" (the key prefix) names the same type as "decisions".
_TYPE_BY_NAME: dict[str, str] = {t.value: t.value for t in MemoryType} | {p: t.value for t, p in KEY_PREFIX.items()}


class NotFoundError(InputError):
    """The item, entity or trace named does not exist in the namespace."""


# ------------------------------------------------------------------------------------------------ helpers
# Shared by the admin modules (entity, export, traces, cypher_console): one place for input checks.
def loads_json(value: Any) -> Any:
    """A stored ``*_json`` string as its value; anything unreadable is returned as it is."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def with_value(row: Row) -> Row:
    """``value_json`` → ``value``: callers get the value object, not its storage form."""
    out = {k: v for k, v in row.items() if k != "value_json"}
    if "value_json" in row:
        out["value"] = loads_json(row["value_json"])
    return out


def require_namespace(namespace: str) -> str:
    """Every service is scoped: an empty namespace is a caller's bug, never "all namespaces"."""
    if not isinstance(namespace, str) or not namespace.strip():
        raise InputError("namespace: required")
    return validate_namespace(namespace)


def check_ref(value: str | None, field: str) -> str | None:
    """An id, key or name given by a caller: non-empty, bounded, no control characters (None passes)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{field}: must be a non-empty string")
    if len(value) > MAX_REF_CHARS or any(ord(c) < 32 for c in value):
        raise InputError(f"{field}: at most {MAX_REF_CHARS} characters, no control characters")
    check_text(value, field)
    return value.strip()


def memory_types(types: Iterable[str] | str | None) -> list[str] | None:
    """Memory type names as stored (``"decisions"``), accepting key prefixes (``"decision"``) too."""
    if types is None:
        return None
    names = [types] if isinstance(types, str) else list(types)
    out: list[str] = []
    for name in names:
        t = _TYPE_BY_NAME.get(str(name).strip().lower())
        if t is None:
            known = ", ".join(t.value for t in MemoryType)
            raise InputError(f"types: unknown memory type {name!r} (one of {known})")
        if t not in out:
            out.append(t)
    return out or None


# ------------------------------------------------------------------------------------------------ list / show
def list_memory(
    store: Store,
    namespace: str,
    *,
    types: Iterable[str] | str | None = None,
    status: str | None = None,
    key_prefix: str | None = None,
    session_id: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> list[dict[str, Any]]:
    """The namespace's memory items, most recently updated first.

    ``status``: ``active`` (also when None), ``superseded``, ``retracted`` or ``all``. ``session_id``
    keeps the items derived from that session's turns and the entities its turns mention.
    """
    require_namespace(namespace)
    status = (status or "active").strip().lower()
    if status not in (*MEMORY_STATUSES, "all"):
        raise InputError(f"status: {status!r} is not one of {', '.join((*MEMORY_STATUSES, 'all'))}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIST_LIMIT:
        raise InputError(f"limit: an integer from 1 to {MAX_LIST_LIMIT}")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InputError("offset: an integer >= 0")
    rows = store.run(
        "explore/list_memory",
        {
            "namespace": namespace,
            "types": memory_types(types),
            "status": None if status == "all" else status,
            "key_prefix": check_ref(key_prefix, "key_prefix"),
            "session_id": check_ref(session_id, "session_id"),
            "limit": limit,
            "offset": offset,
        },
    )
    return [with_value(r) for r in rows]


def show_memory(store: Store, namespace: str, item_id_or_key: str) -> dict[str, Any]:
    """One item (an id, or a key: its active version, else its newest) with its history and provenance.

    Returns ``item``, ``history`` (every version, oldest first, each with the edges it ``replaces`` and
    is ``replaced_by``), ``provenance`` (``turns`` and ``messages`` with their text) and ``mentions``
    (the entities it mentions). Raises NotFoundError when nothing matches.
    """
    require_namespace(namespace)
    ref = check_ref(item_id_or_key, "item")
    rows = store.run("explore/show_memory", {"namespace": namespace, "ref": ref})
    if not rows:
        raise NotFoundError(f"no memory item with id or key {ref!r} in namespace {namespace!r}")
    row = rows[0]
    # The projection names entity-only fields too; an item shows only the ones it has.
    item = {k: v for k, v in with_value(row["item"]).items() if v is not None}
    return {
        "item": item,
        "history": [with_value(v) for v in row["history"]],
        "provenance": {"turns": row["turns"], "messages": row["messages"]},
        "mentions": row["mentions"],
    }


# ------------------------------------------------------------------------------------------------ forget
def forget(
    store: Store,
    namespace: str,
    *,
    item_id: str | None = None,
    key: str | None = None,
    session_id: str | None = None,
    whole_namespace: bool = False,
) -> dict[str, Any]:
    """Remove an item (by id or key), a session or the whole namespace; see the module docstring.

    Exactly one target. Returns ``{"namespace", "target", "found", "deleted": {kind: count}, "total"}``
    (``restored`` counts the versions a session forget made active again; ``rewritten`` the summaries
    and commit traces rewritten without a forgotten item). Forgetting what is not there
    is not an error: ``found`` is False and nothing is deleted.
    """
    require_namespace(namespace)
    given = [name for name, v in (("item_id", item_id), ("key", key), ("session_id", session_id)) if v is not None]
    if whole_namespace:
        given.append("whole_namespace")
    if len(given) != 1:
        raise InputError("forget: give exactly one of item_id, key, session_id or whole_namespace")
    counts: Counter[str] = Counter()
    if whole_namespace:
        target: dict[str, str] = {"namespace": namespace}
        found = _forget_namespace(store, namespace, counts)
    elif session_id is not None:
        sid = check_ref(session_id, "session_id")
        assert sid is not None
        target = {"session_id": sid}
        found = _forget_session(store, namespace, sid, counts)
    else:
        item, k = check_ref(item_id, "item_id"), check_ref(key, "key")
        target = {"item_id": item} if item is not None else {"key": k or ""}
        found = _forget_item(store, namespace, item, k, counts)
    deleted = {name: n for name, n in sorted(counts.items()) if name not in ("restored", *REWRITTEN)}
    out: dict[str, Any] = {
        "namespace": namespace,
        "target": target,
        "found": found,
        "deleted": deleted,
        "total": sum(deleted.values()),
    }
    if "restored" in counts:
        out["restored"] = counts["restored"]
    rewritten = {name.removesuffix("_rewritten"): counts[name] for name in REWRITTEN if counts[name]}
    if rewritten:
        out["rewritten"] = rewritten
    return out


def _orphans(tx: Tx, namespace: str, entity_ids: Sequence[str]) -> int:
    if not entity_ids:
        return 0
    rows = tx.run("admin/delete_orphan_entities", {"namespace": namespace, "ids": list(entity_ids)})
    return int(rows[0]["deleted"]) if rows else 0


def _free_locks(tx: Tx, namespace: str, keys: Sequence[str]) -> int:
    if not keys:
        return 0
    rows = tx.run("admin/delete_free_locks", {"namespace": namespace, "keys": sorted(set(keys))})
    return int(rows[0]["deleted"]) if rows else 0


def _forget_item(store: Store, namespace: str, item_id: str | None, key: str | None, counts: Counter[str]) -> bool:
    rows = store.run("admin/forget_resolve_item", {"namespace": namespace, "item_id": item_id, "key": key})
    if not rows:
        return False
    mem_key: str = rows[0]["key"]
    canonicals: list[str] = rows[0]["canonicals"]

    def batch(tx: Tx) -> tuple[int, int]:
        r = tx.run("admin/forget_key_batch", {"namespace": namespace, "key": mem_key, "batch": FORGET_BATCH})[0]
        return int(r["deleted"]), _orphans(tx, namespace, r["entity_ids"])

    while True:
        deleted, orphans = store.write(batch)
        counts["memory"] += deleted
        counts["entities"] += orphans
        if deleted == 0:
            break

    def finish(tx: Tx) -> tuple[int, int]:
        locks = _free_locks(tx, namespace, [mem_key])
        scrubbed = 0
        if canonicals:
            r = tx.run("admin/scrub_entity_keys", {"namespace": namespace, "canonicals": canonicals})
            scrubbed = int(r[0]["turns"]) if r else 0
        return locks, scrubbed

    locks, _ = store.write(finish)
    counts["memory_keys"] += locks
    _forget_quotes(store, namespace, rows[0]["items"], counts)
    return True


# ------------------------------------------------------------------------------------------------ quotes
# Below this length an item's text says too little to be sure a string quoting it means it.
MIN_QUOTE_CHARS = 12
# A system block or a snippet may cut an item's text; its start is what they all keep.
QUOTE_CHARS = 60
FORGOTTEN = "(forgotten)"


class _Quotes:
    """How a forgotten item shows in what was distilled from it: strings that contain one of ``needles``
    (a key, a version id, a text) quote it; a field equal to one of ``names`` (an entity's name) names it;
    ``lines`` are the summary lines built from it."""

    def __init__(self, items: Sequence[Row]) -> None:
        needles: set[str] = set()
        self.names: set[str] = set()
        self.lines: set[str] = set()
        for it in items:
            needles.update(str(it[k]) for k in ("key", "id") if it.get(k))
            self.lines |= summary_lines_of(it)
            if it.get("type") == MemoryType.entities.value:
                self.names.update(n for n in [it.get("name"), *(it.get("aliases") or [])] if isinstance(n, str) and n)
                continue
            text = str(it.get("text") or "").partition("] ")[2] or str(it.get("text") or "")
            if len(text) >= MIN_QUOTE_CHARS:
                needles.add(text[:QUOTE_CHARS])
        self.needles = sorted(needles)

    def quoted(self, text: str) -> bool:
        return any(n in text for n in self.needles)

    def names_it(self, entry: dict[str, Any]) -> bool:
        return any(isinstance(v, str) and (v in self.names or self.quoted(v)) for v in entry.values()) or any(
            isinstance(v, list) and any(isinstance(x, str) and self.quoted(x) for x in v) for v in entry.values()
        )

    def scrub(self, value: Any) -> Any:
        """A JSON value without the item: list entries that name it dropped, other mentions replaced."""
        if isinstance(value, dict):
            return {k: self.scrub(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.scrub(v) for v in value if not (isinstance(v, dict) and self.names_it(v))]
        if isinstance(value, str):
            for n in self.needles:
                value = value.replace(n, FORGOTTEN)
        return value


def _forget_quotes(store: Store, namespace: str, items: Sequence[Row], counts: Counter[str]) -> None:
    """Rewrite the summaries and commit traces that quote the forgotten ``items``; delete the context
    traces that do (see the module docstring)."""
    quotes = _Quotes(items)
    if not quotes.needles:
        return
    found = store.run("admin/forget_find_quoting", {"namespace": namespace, "needles": quotes.needles})
    summaries, traces = [], []
    for row in found:
        if row["kind"] == "summary":
            text = drop_summary_lines(str(row["text"] or ""), quotes.lines)
            summaries.append({"id": row["id"], "text": quotes.scrub(text), "reason": quotes.scrub(row["reason"])})
        else:
            result = loads_json(row["result"])
            traces.append({"id": row["id"], "result": json.dumps(quotes.scrub(result), ensure_ascii=False)})
    for start in range(0, max(len(summaries), len(traces)), FORGET_BATCH):
        r = store.run(
            "admin/forget_rewrite_quoting",
            {
                "namespace": namespace,
                "summaries": summaries[start : start + FORGET_BATCH],
                "commit_traces": traces[start : start + FORGET_BATCH],
            },
            write=True,
        )[0]
        counts["summaries_rewritten"] += int(r["summaries"])
        counts["commit_traces_rewritten"] += int(r["commit_traces"])
    params = {"namespace": namespace, "needles": quotes.needles, "batch": FORGET_BATCH}
    while True:
        deleted = int(store.run("admin/forget_context_traces", params, write=True)[0]["deleted"])
        counts["context_traces"] += deleted
        if not deleted:
            break


def _forget_session(store: Store, namespace: str, session_id: str, counts: Counter[str]) -> bool:
    params = {"namespace": namespace, "session_id": session_id, "batch": FORGET_BATCH}
    plan = store.run("admin/forget_session_plan", params)[0]
    ids: list[str] = plan["ids"]
    candidates: list[str] = plan["candidates"]
    # What they say, read before they go: other sessions' summaries and traces may quote them.
    quoted = store.run("admin/memory_items_by_id", {"namespace": namespace, "ids": ids}) if ids else []

    def restore(tx: Tx) -> int:
        if not candidates:
            return 0
        r = tx.run("admin/restore_keys", {"namespace": namespace, "candidates": candidates})
        return int(r[0]["restored"]) if r else 0

    # Memory items first: which ones go is decided by their DERIVED_FROM turns, which must still exist.
    # Each batch restores, in the same transaction, the keys it left without an active version.
    for start in range(0, len(ids), FORGET_BATCH):
        chunk = ids[start : start + FORGET_BATCH]

        def items(tx: Tx, chunk: list[str] = chunk) -> tuple[int, int, int, int]:
            r = tx.run("admin/forget_session_items", {"namespace": namespace, "ids": chunk})[0]
            restored = restore(tx)
            return (
                int(r["deleted"]),
                restored,
                _free_locks(tx, namespace, r["keys"]),
                _orphans(tx, namespace, r["entity_ids"]),
            )

        deleted, restored, locks, orphans = store.write(items)
        counts["memory"] += deleted
        counts["restored"] += restored
        counts["memory_keys"] += locks
        counts["entities"] += orphans
    # Retractions made by the session's turns may need a restore even when it derived no item.
    counts["restored"] += store.write(restore)

    def turns(tx: Tx) -> Row:
        r = tx.run("admin/forget_session_turns", params)[0]
        return {**r, "entities": _orphans(tx, namespace, r["entity_ids"])}

    while True:
        r = store.write(turns)
        for name in ("messages", "tool_calls", "refs", "entities"):
            counts[name] += int(r[name])
        counts["turns"] += int(r["deleted"])
        if not r["deleted"]:
            break
    _drain(store, "admin/forget_session_rest", params, counts)
    fin = store.run("admin/forget_session_finish", params, write=True)[0]
    counts["sessions"] += int(fin["sessions"])
    counts["entities"] += int(fin["entities"])
    if quoted:
        _forget_quotes(store, namespace, quoted, counts)
    return any(n for name, n in counts.items() if name not in ("restored", *REWRITTEN))


def _drain(store: Store, query: str, params: dict[str, Any], counts: Counter[str]) -> None:
    """Run a batched delete until a batch deletes nothing, adding its per-kind counts to ``counts``."""
    while True:
        r = store.run(query, params, write=True)[0]
        for name, n in r.items():
            counts[name] += int(n)
        if not any(r.values()):
            return


def _forget_namespace(store: Store, namespace: str, counts: Counter[str]) -> bool:
    params = {"namespace": namespace, "batch": FORGET_BATCH}
    _drain(store, "admin/forget_namespace_batch", params, counts)
    while True:
        rest = int(store.run("admin/forget_namespace_rest", params, write=True)[0]["deleted"])
        counts["other"] += rest
        if not rest:
            break
    return any(counts.values())
