"""The Neo4j store chains its transactions by bookmarks: each opens its own session, and on a cluster a
read routed to a follower must still see the writes this process made before it (a commit's pre-read of
the turn before, the compose after a commit). One server cannot lag, so what is checked here is the
chain itself: every write advances the bookmark the next transaction waits for, a read does not."""

from __future__ import annotations

from pathlib import Path

from graphbrain.config import load_config
from graphbrain.store.neo4j_store import Neo4jStore

# Not conftest's make_config: `from conftest import` finds whichever conftest pytest put on the path
# first (tests/retrieve_db's in a full run), so the config is loaded here.
ROOT = Path(__file__).resolve().parents[1]


def test_every_write_advances_the_bookmark_the_next_transaction_waits_for(neo4j_uri: str) -> None:
    store = Neo4jStore(load_config(ROOT / "brain.yml", overrides={"storage.neo4j.uri": neo4j_uri}).storage.neo4j)
    write = "CREATE (:BookmarkProbe {namespace: 'bookmark-test'})"
    try:
        before = store.bookmarks()
        store.cypher(write, write=True)
        first = store.bookmarks()
        assert first and first != before
        store.cypher("MATCH (n:BookmarkProbe) RETURN count(n) AS n")
        assert store.bookmarks() == first  # a read leaves the chain where the last write put it
        store.cypher(write, write=True)
        assert store.bookmarks() not in (before, first)
    finally:
        store.cypher("MATCH (n:BookmarkProbe) DETACH DELETE n", write=True)
        store.close()
