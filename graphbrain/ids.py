"""Deterministic ids: the same (namespace, natural key) always gives the same id.

Node ids are unique across tenants (the namespace is part of the hash) yet reproducible, so replaying
a turn, re-ingesting a document or migrating a namespace lands on the same nodes.
"""

from __future__ import annotations

import hashlib
import uuid


def stable_id(kind: str, namespace: str, *parts: object) -> str:
    h = hashlib.sha1("\x1f".join([kind, namespace, *map(str, parts)]).encode("utf-8")).hexdigest()
    return f"{kind}_{h[:24]}"


def entity_id(namespace: str, canonical: str) -> str:
    """An Entity node's id: by canonical name only, not kind, so that two writers meeting a new name
    at once — one NER calling it a person, the other a topic — MERGE into one node, not two."""
    return stable_id("ent", namespace, "canonical", canonical)


def new_id(kind: str) -> str:
    return f"{kind}_{uuid.uuid4().hex[:24]}"


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
