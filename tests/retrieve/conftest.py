"""Candidate factory for the pure retrieval tests (no database)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphbrain.contracts import Mode
from graphbrain.retrieve.candidate import Candidate

MakeCandidate = Callable[..., Candidate]


def build_candidate(cid: str, **kw: Any) -> Candidate:
    """A Candidate with sensible defaults: a resource in its own document unless told otherwise."""
    side = kw.pop("side", "resource")
    defaults: dict[str, Any] = {
        "text": f"text of {cid}",
        "mode": Mode.exact,
        "query_index": 0,
        "query_text": "q",
        "source_uri": f"file:///docs/{cid}.md",
        "source_type": "file",
    }
    if side == "resource":
        defaults |= {"document_id": f"doc-{cid}", "section_id": "s0", "chunk_index": 0}
    elif side == "memory":
        defaults |= {
            "memory_item_id": cid,
            "source_uri": f"graphbrain://memory/{cid}",
            "source_type": "other",
        }
    else:
        defaults |= {"turn_id": cid, "source_uri": f"graphbrain://turn/{cid}", "source_type": "other"}
    defaults.update(kw)
    return Candidate(id=cid, side=side, **defaults)


@pytest.fixture()
def make_candidate() -> MakeCandidate:
    return build_candidate
