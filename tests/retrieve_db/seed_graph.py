"""A small, hand-made graph for the retrieval tests, written with plain Cypher as docs/graph-model.md says.

The commit and ingest pipelines are built in parallel, so the executor's tests do not depend on them:
this helper writes Session / Turn / Message, Memory (+ type label) with DERIVED_FROM / SUPERSEDES /
MENTIONS, Entity (``Memory:Entity``) with RELATED_TO, and Document / Section / Chunk with Tag / Topic,
every property named as in the graph model, embeddings from ``brain.embedder``. Chinese and English.

The story (namespace ``main``):

- Project Falcon (entity, alias 猎鹰项目) is RELATED_TO Neo4j (entity). The storage decision mentions
  Neo4j and derives from the turn about Neo4j, but never says "Falcon": relational search for Project
  Falcon reaches it in two hops (falcon -RELATED_TO- neo4j -MENTIONS- decision); exact and semantic
  search for "Project Falcon" do not.
- The storage decision superseded an older one (PostgreSQL), kept with status ``superseded``.
- Session sess-2 is in Chinese (vector index settings, a walk in the park); a Chinese preference, goal
  and decision.
- Documents: an English Neo4j vector guide (url), a Chinese retrieval design (file) with a long
  appendix chunk, a bread recipe (manual, unrelated) and a five-section Neo4j operations handbook
  (file) that exact search for "Neo4j" would let dominate without the by_document cap.

``variant="other"`` writes a second namespace holding the same entity names (Project Falcon, Neo4j),
its own storage decision (MongoDB) and vector guide, plus two deliberately stray edges into the main
namespace when ``stray_edges_to`` is given: a traversal must never follow them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphbrain import Brain
from graphbrain.commit.searchable import is_english, prepare_messages
from graphbrain.contracts import EvidencePack
from graphbrain.ids import content_hash, stable_id
from graphbrain.nlp import detect_language

# The ``run`` fixture (conftest.py): a plan in, the EvidencePack out.
Run = Callable[..., EvidencePack]


def at(day: str, hour: int = 9) -> datetime:
    return datetime.fromisoformat(f"{day}T{hour:02d}:00:00").replace(tzinfo=UTC)


TYPE_LABELS = {
    "profile": "Profile",
    "preferences": "Preference",
    "goals": "Goal",
    "tasks": "Task",
    "decisions": "Decision",
    "entities": "Entity",
    "events": "Event",
    "cases": "Case",
    "patterns": "Pattern",
}

LONG_APPENDIX = (
    "附录：检索管线的每一步都要可观测。"
    + "".join(
        f"第{i}条：候选集先经过倒数排名融合，再由特征重排器按查询词覆盖、实体重合、时间新近度与来源优先级打分。"
        f" Step {i}: the fused pool is reranked and then capped per document and per source. "
        for i in range(1, 25)
    )
    + "结尾：片段长度绝不超过 max_snippet_chars。"
)


@dataclass
class SeededGraph:
    namespace: str
    ids: dict[str, str] = field(default_factory=dict)  # handle -> node id (memory, message, chunk...)
    documents: dict[str, str] = field(default_factory=dict)  # handle -> Document id
    turns: dict[str, str] = field(default_factory=dict)  # handle -> Turn node id

    def memory(self, handle: str) -> str:
        """The evidence id of a memory item."""
        return f"memory:{self.ids[handle]}"

    def message(self, handle: str) -> str:
        """The evidence id of a message."""
        return f"turn:{self.ids[handle]}"


class _Builder:
    def __init__(self, brain: Brain, namespace: str) -> None:
        self.brain = brain
        self.ns = namespace
        self.out = SeededGraph(namespace)
        self.sessions: list[dict[str, Any]] = []
        self.turn_rows: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        self._last_content: dict[str, str | None] = {}  # session -> its last message so far
        self.memories: list[dict[str, Any]] = []
        self.documents: list[dict[str, Any]] = []
        self.sections: list[dict[str, Any]] = []
        self.chunks: list[dict[str, Any]] = []
        self.tags: dict[tuple[str, str], dict[str, Any]] = {}
        self.refs: list[dict[str, Any]] = []
        self.edges: list[dict[str, Any]] = []  # {src, dst, type, props} by node id

    # ------------------------------------------------------------------ events
    def session(self, session_id: str, created: datetime) -> None:
        self.sessions.append(
            {
                "id": stable_id("session", self.ns, session_id),
                "namespace": self.ns,
                "session_id": session_id,
                "created_at": created,
                "updated_at": created,
                "last_seq": 0,
                "summary_version": 0,
                "summary_upto_seq": 0,
                "tokens_since_summary": 0,
            }
        )

    def turn(self, handle: str, session_id: str, turn_id: str, seq: int, when: datetime, *texts: str) -> None:
        turn_node = stable_id("turn", self.ns, session_id, turn_id)
        roles = ["user", "assistant"]
        lines = []
        first = len(self.messages)
        for pos, content in enumerate(texts):
            role = roles[pos % 2]
            message_id = f"{turn_id}:{pos}"
            msg_node = stable_id("message", self.ns, session_id, turn_id, message_id)
            self.messages.append(
                {
                    "id": msg_node,
                    "namespace": self.ns,
                    "session_id": session_id,
                    "turn_id": turn_id,
                    "message_id": message_id,
                    "role": role,
                    "content": content,
                    "at": when,
                    "position": pos,
                    "language": detect_language(content),
                }
            )
            self.out.ids[f"{handle}.{pos}"] = msg_node
            self.edges.append({"src": turn_node, "dst": msg_node, "type": "HAS_MESSAGE", "props": {"position": pos}})
            lines.append(f"{role}: {content}")
        # search_text / filler exactly as commit_turn writes them (the message before is this session's last)
        rows = self.messages[first:]
        previous = self._last_content.get(session_id)
        prepare_messages(rows, at=when, previous=previous)
        for row in rows:
            row.pop("embed_text")
        self._last_content[session_id] = texts[-1] if texts else previous
        self.turn_rows.append(
            {
                "id": turn_node,
                "namespace": self.ns,
                "session_id": session_id,
                "turn_id": turn_id,
                "seq": seq,
                "at": when,
                "commit_id": stable_id("commit", self.ns, session_id, turn_id),
                "entity_keys": [],
                "text": "\n".join(lines),
                "metadata_json": "{}",
                "created_at": when,
            }
        )
        self.out.turns[handle] = turn_node
        self.edges.append(
            {
                "src": stable_id("session", self.ns, session_id),
                "dst": turn_node,
                "type": "HAS_TURN",
                "props": {},
            }
        )

    def ref(self, handle: str, turn: str, kind: str, uri: str, title: str, when: datetime) -> str:
        node = stable_id("ref", self.ns, uri)
        self.refs.append(
            {
                "id": node,
                "namespace": self.ns,
                "type": kind,
                "uri": uri,
                "title": title,
                "metadata_json": "{}",
                "first_seen": when,
                "last_seen": when,
            }
        )
        self.out.ids[handle] = node
        self.edges.append({"src": self.out.turns[turn], "dst": node, "type": "REFERENCES", "props": {}})
        return node

    # ------------------------------------------------------------------ memory
    def item(
        self,
        handle: str,
        mtype: str,
        key: str,
        value: dict[str, Any],
        readable: str,
        when: datetime,
        *,
        status: str = "active",
        session_id: str | None = None,
        turn: str | None = None,
        version: int = 1,
        extra: dict[str, Any] | None = None,
    ) -> str:
        node = stable_id("mem", self.ns, key, version)
        turn_row = next((t for t in self.turn_rows if t["id"] == self.out.turns.get(turn or "")), None)
        self.memories.append(
            {
                "labels": ["Memory", TYPE_LABELS[mtype], *(["Active"] if status == "active" else [])],
                "props": {
                    "id": node,
                    "namespace": self.ns,
                    "type": mtype,
                    "key": key,
                    "value_json": json.dumps(value, ensure_ascii=False),
                    "text": f"[{mtype}:{key}] {readable}",
                    "confidence": 0.9,
                    "status": status,
                    "active_key": f"{self.ns}|{key}" if status == "active" else None,
                    "source": "user",
                    "source_session_id": session_id,
                    "source_turn_id": turn_row["turn_id"] if turn_row else None,
                    "source_message_id": f"{turn_row['turn_id']}:0" if turn_row else None,
                    "evidence_refs": [],
                    "version": version,
                    "created_at": when,
                    "updated_at": when,
                    **(extra or {}),
                },
            }
        )
        self.out.ids[handle] = node
        if turn is not None:
            self.edges.append({"src": node, "dst": self.out.turns[turn], "type": "DERIVED_FROM", "props": {}})
            self.edges.append({"src": node, "dst": self.out.ids[f"{turn}.0"], "type": "DERIVED_FROM", "props": {}})
        return node

    def entity(self, handle: str, kind: str, canonical: str, name: str, when: datetime, aliases: list[str]) -> str:
        key = f"entity:{kind}:{canonical}"
        readable = name + (f" (aka {', '.join(aliases)})" if aliases else "")
        return self.item(
            handle,
            "entities",
            key,
            {"kind": kind, "name": name, "aliases": aliases},
            readable,
            when,
            extra={
                "kind": kind,
                "canonical": canonical,
                "name": name,
                "aliases": aliases,
                "aliases_text": " ".join(aliases),
                "mention_count": 2,
                "last_seen": when,
            },
        )

    def edge(self, src: str, rel: str, dst: str, **props: Any) -> None:
        self.edges.append({"src": src, "dst": dst, "type": rel, "props": props})

    # ------------------------------------------------------------------ resources
    def document(
        self,
        handle: str,
        title: str,
        uri: str,
        source_type: str,
        language: str,
        when: datetime,
        sections: list[tuple[str, str, list[str]]],
        *,
        tags: list[str],
        topics: list[str],
    ) -> str:
        doc_id = stable_id("doc", self.ns, uri)
        self.out.documents[handle] = doc_id
        offset = 0
        chunk_index = 0
        full: list[str] = []
        for s_index, (section_id, s_title, texts) in enumerate(sections):
            section_text = "\n".join(texts)
            section_node = stable_id("section", self.ns, doc_id, section_id)
            first = texts[0].split("。")[0].split(". ")[0]
            self.sections.append(
                {
                    "id": section_node,
                    "namespace": self.ns,
                    "document_id": doc_id,
                    "section_id": section_id,
                    "index": s_index,
                    "title": s_title,
                    "heading_path": [title, s_title],
                    "level": 2,
                    "page": None,
                    "l0": f"{s_title}: {first}"[:160],
                    "l1": section_text[:300],
                    "text": section_text,
                    "offset_start": offset,
                    "offset_end": offset + len(section_text),
                }
            )
            self.edges.append({"src": doc_id, "dst": section_node, "type": "HAS_SECTION", "props": {}})
            for text in texts:
                chunk_node = stable_id("chunk", self.ns, doc_id, chunk_index)
                self.chunks.append(
                    {
                        "id": chunk_node,
                        "namespace": self.ns,
                        "document_id": doc_id,
                        "section_id": section_id,
                        "chunk_index": chunk_index,
                        "text": text,
                        "offset_start": offset,
                        "offset_end": offset + len(text),
                        "page": None,
                        "section_title": s_title,
                        "content_hash": content_hash(text),
                        "language": language,
                        "title": title,
                        "source_uri": uri,
                        "source_type": source_type,
                        "updated_at": when,
                    }
                )
                self.out.ids[f"{handle}.{chunk_index}"] = chunk_node
                self.edges.append({"src": section_node, "dst": chunk_node, "type": "HAS_CHUNK", "props": {}})
                offset += len(text) + 1
                chunk_index += 1
                full.append(text)
        self.documents.append(
            {
                "id": doc_id,
                "namespace": self.ns,
                "title": title,
                "source_uri": uri,
                "source_type": source_type,
                "format": "markdown",
                "language": language,
                "content_hash": content_hash("\n".join(full)),
                "metadata_json": "{}",
                "created_at": when,
                "updated_at": when,
                "section_count": len(sections),
                "chunk_count": chunk_index,
            }
        )
        for label, rel, names in (("Tag", "TAGGED", tags), ("Topic", "IN_TOPIC", topics)):
            for name in names:
                node = stable_id(label.lower(), self.ns, name)
                self.tags[(label, node)] = {"id": node, "namespace": self.ns, "name": name}
                self.edges.append({"src": doc_id, "dst": node, "type": rel, "props": {}})
        return doc_id

    # ------------------------------------------------------------------ write
    def write(self) -> SeededGraph:
        emb = self.brain.embedder
        texts = [m["content"] for m in self.messages]
        texts += [m["props"]["text"] for m in self.memories]
        texts += [c["text"] for c in self.chunks]
        vectors = emb.embed(texts)
        it = iter(vectors)
        for m in self.messages:
            m["embedding"] = next(it)
        for m in self.memories:
            m["props"]["embedding"] = next(it)
        for c in self.chunks:
            c["embedding"] = next(it)
        # The English model's vectors, on English and mixed text, as commit and ingest write them.
        english = self.brain.english_embedder
        rows = [m for m in self.messages if is_english(m["content"])]
        rows += [m["props"] for m in self.memories if is_english(m["props"]["text"])]
        rows += [c for c in self.chunks if is_english(c["text"])]
        if english is not None and rows:
            for row, vec in zip(rows, english.embed([r.get("content") or r["text"] for r in rows]), strict=True):
                row["embedding_en"] = vec
        cy = self.brain.store.cypher
        cy("UNWIND $rows AS r CREATE (n:Session) SET n = r", {"rows": self.sessions}, write=True)
        cy("UNWIND $rows AS r CREATE (n:Turn) SET n = r", {"rows": self.turn_rows}, write=True)
        cy("UNWIND $rows AS r CREATE (n:Message) SET n = r", {"rows": self.messages}, write=True)
        cy("UNWIND $rows AS r CREATE (n:Ref) SET n = r", {"rows": self.refs}, write=True)
        # Labels and relationship types cannot be parameters in portable Cypher: one fixed-label
        # statement per label set (names come from this file's own constants, never from input).
        by_labels: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for m in self.memories:
            by_labels.setdefault(tuple(m["labels"]), []).append(m["props"])
        for labels, rows in sorted(by_labels.items()):
            cy(f"UNWIND $rows AS r CREATE (n:{_labels(labels)}) SET n = r", {"rows": rows}, write=True)
        cy("UNWIND $rows AS r CREATE (n:Document) SET n = r", {"rows": self.documents}, write=True)
        cy("UNWIND $rows AS r CREATE (n:Section) SET n = r", {"rows": self.sections}, write=True)
        cy("UNWIND $rows AS r CREATE (n:Chunk) SET n = r", {"rows": self.chunks}, write=True)
        by_tag_label: dict[str, list[dict[str, Any]]] = {}
        for (label, _), props in sorted(self.tags.items()):
            by_tag_label.setdefault(label, []).append(props)
        for label, rows in sorted(by_tag_label.items()):
            cy(f"UNWIND $rows AS r CREATE (n:{_labels([label])}) SET n = r", {"rows": rows}, write=True)
        write_edges(self.brain, self.edges)
        return self.out


_NAME = re.compile(r"^[A-Z][A-Za-z_]*$")


def _labels(names: Any) -> str:
    """``A:B`` for a fixed set of label or relationship-type names (checked, as they go into the text)."""
    for name in names:
        if not _NAME.match(name):
            raise ValueError(f"not a label name: {name!r}")
    return ":".join(names)


def write_edges(brain: Brain, edges: list[dict[str, Any]]) -> None:
    """Create edges between nodes given by id (ids are unique across labels and namespaces)."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for e in edges:
        by_type.setdefault(e["type"], []).append(e)
    for rel, rows in sorted(by_type.items()):
        brain.store.cypher(
            f"""
            UNWIND $rows AS r
            MATCH (a {{id: r.src}}), (b {{id: r.dst}})
            CREATE (a)-[e:{_labels([rel])}]->(b)
            SET e = r.props
            """,
            {"rows": rows},
            write=True,
        )


def seed_graph(brain: Brain, namespace: str | None = None, *, variant: str = "main") -> SeededGraph:
    """Write the test graph into ``namespace`` (default: the brain's); returns the node ids by handle."""
    b = _Builder(brain, namespace or brain.namespace)
    if variant == "other":
        return _seed_other(b)
    b.session("sess-1", at("2026-01-10"))
    b.session("sess-2", at("2026-02-01"))
    b.turn(
        "t1",
        "sess-1",
        "t-001",
        1,
        at("2026-01-10"),
        "Let's kick off Project Falcon this week with the whole team.",
        "Project Falcon kickoff is on the calendar for Thursday.",
    )
    b.turn(
        "t2",
        "sess-1",
        "t-002",
        2,
        at("2026-01-12"),
        "For the storage layer we will use Neo4j 5.26 community edition.",
        "Recorded: Neo4j 5.26 is the graph store.",
    )
    b.ref(
        "ref_indexes",
        "t2",
        "url",
        "https://neo4j.com/docs/cypher-manual/current/indexes",
        "Indexes",
        at("2026-01-12"),
    )
    b.turn(
        "t3",
        "sess-2",
        "t-001",  # the same caller turn_id as in sess-1, on purpose
        1,
        at("2026-02-01"),
        "我们讨论一下向量索引的余弦相似度设置。",
        "好的，向量索引使用余弦相似度，维度是 512。",
    )
    b.turn(
        "t4",
        "sess-2",
        "t-002",
        2,
        at("2026-02-03"),
        "周末去公园散步吧，天气不错。",
        "好主意，记得带伞。",
    )
    falcon = b.entity("falcon", "topic", "project falcon", "Project Falcon", at("2026-01-10"), ["猎鹰项目"])
    neo4j = b.entity("neo4j", "topic", "neo4j", "Neo4j", at("2026-01-12"), [])
    repo = b.entity("repo", "repo", "acme/graphbrain", "acme/graphbrain", at("2026-01-12"), [])
    sourdough = b.entity("sourdough", "topic", "sourdough", "Sourdough", at("2025-06-01"), [])
    b.edge(falcon, "RELATED_TO", neo4j, weight=2)
    b.edge(b.out.turns["t1"], "MENTIONS", falcon, count=2)
    b.edge(b.out.ids["t1.0"], "MENTIONS", falcon, start=16, end=30, text="Project Falcon")
    b.edge(b.out.turns["t2"], "MENTIONS", neo4j, count=2)

    old = b.item(
        "dec_storage_old",
        "decisions",
        "decision:graphbrain:storage",
        {"decision": "PostgreSQL"},
        "Keep the knowledge graph in PostgreSQL tables",
        at("2026-01-08"),
        status="superseded",
        session_id="sess-1",
    )
    new = b.item(
        "dec_storage",
        "decisions",
        "decision:graphbrain:storage",
        {"decision": "Neo4j 5.26 community"},
        "Keep the knowledge graph in Neo4j 5.26 community edition",
        at("2026-01-12"),
        session_id="sess-1",
        turn="t2",
        version=2,
    )
    b.edge(new, "SUPERSEDES", old)
    b.edge(new, "MENTIONS", neo4j)
    task = b.item(
        "task_schema",
        "tasks",
        "task:graphbrain:schema",
        {"title": "Create the Neo4j schema", "status": "doing"},
        "Create the Neo4j schema: constraints and indexes (status: doing)",
        at("2026-01-15"),
        session_id="sess-1",
        turn="t2",
    )
    b.edge(task, "MENTIONS", neo4j)
    b.edge(task, "MENTIONS", repo)
    b.item(
        "pref_lang",
        "preferences",
        "pref:writing:language",
        {"value": "简体中文"},
        "回答请使用简体中文",
        at("2026-02-01"),
        session_id="sess-2",
        turn="t3",
    )
    b.item(
        "goal_latency",
        "goals",
        "goal:graphbrain:latency",
        {"goal": "检索延迟 < 100ms"},
        "检索延迟保持在 100 毫秒以内",
        at("2026-02-02"),
        session_id="sess-2",
    )
    b.item(
        "dec_embed",
        "decisions",
        "decision:graphbrain:embedding",
        {"decision": "USE multilingual, 512-d"},
        "嵌入模型选用多语言 USE，向量维度 512",
        at("2026-02-01"),
        session_id="sess-2",
        turn="t3",
    )
    b.item(
        "event_release",
        "events",
        "event:graphbrain:2026-01-20:release",
        {"title": "v0.1 release"},
        "First public release v0.1 shipped to early users",
        at("2026-01-20"),
        session_id="sess-1",
    )

    b.document(
        "neo",
        "Neo4j Vector Index Guide",
        "https://neo4j.com/docs/vector-indexes",
        "url",
        "en",
        at("2026-01-05"),
        [
            (
                "s00-overview",
                "Overview",
                ["Neo4j vector indexes support approximate nearest neighbour search over node embeddings."],
            ),
            (
                "s01-similarity",
                "Similarity functions",
                [
                    "Cosine similarity compares the angle between two embedding vectors; the score is "
                    "normalised to the range zero to one.",
                    "Euclidean similarity uses the distance between two embedding vectors instead of the angle.",
                ],
            ),
            (
                "s02-filtering",
                "Filtering",
                ["Vector search results can be filtered after the query by label and property predicates."],
            ),
        ],
        tags=["neo4j", "database"],
        topics=["search"],
    )
    b.document(
        "design",
        "知识图谱检索设计",
        "file:///work/docs/retrieval-design.md",
        "file",
        "zh",
        at("2026-02-10"),
        [
            (
                "s00-hybrid",
                "混合检索",
                ["混合检索把 BM25 全文检索和向量检索的结果用倒数排名融合（RRF）合并。"],
            ),
            (
                "s01-relational",
                "关系检索",
                ["关系检索从查询提到的实体出发，沿着图谱多跳扩展，再用个性化 PageRank 排序。"],
            ),
            ("s02-appendix", "附录", [LONG_APPENDIX]),
        ],
        tags=["design"],
        topics=["search"],
    )
    b.document(
        "bread",
        "Bread Baking Notes",
        "manual://notes/bread",
        "manual",
        "en",
        at("2025-06-01"),
        [
            (
                "s00-loaf",
                "Sourdough loaf",
                ["Bake the sourdough loaf at 230 degrees for twenty minutes with steam."],
            )
        ],
        tags=["cooking"],
        topics=["cooking"],
    )
    b.edge(b.out.ids["bread.0"], "MENTIONS", sourdough)
    b.document(
        "ops",
        "Neo4j Operations Handbook",
        "file:///work/docs/ops.md",
        "file",
        "en",
        at("2026-01-25"),
        [
            ("s00-backup", "Backups", ["Back up the Neo4j database every night with neo4j-admin dump."]),
            (
                "s01-cache",
                "Page cache",
                ["Watch the Neo4j page cache hit ratio on the monitoring dashboard."],
            ),
            ("s02-heap", "Heap", ["Size the Neo4j heap so that garbage collection pauses stay short."]),
            (
                "s03-logs",
                "Transaction logs",
                ["Keep two days of Neo4j transaction logs for point-in-time recovery."],
            ),
            ("s04-upgrade", "Upgrades", ["Upgrade Neo4j one minor version at a time after a full backup."]),
        ],
        tags=["neo4j", "operations"],
        topics=["operations"],
    )
    return b.write()


def _seed_other(b: _Builder) -> SeededGraph:
    """Another tenant with the same entity names and a conflicting storage decision."""
    b.session("sess-1", at("2026-01-10"))
    b.turn("t1", "sess-1", "t-001", 1, at("2026-01-10"), "Project Falcon uses MongoDB, says the other team.")
    falcon = b.entity("falcon", "topic", "project falcon", "Project Falcon", at("2026-01-10"), ["猎鹰项目"])
    neo4j = b.entity("neo4j", "topic", "neo4j", "Neo4j", at("2026-01-10"), [])
    b.edge(falcon, "RELATED_TO", neo4j, weight=5)
    dec = b.item(
        "dec_storage",
        "decisions",
        "decision:graphbrain:storage",
        {"decision": "MongoDB"},
        "Keep the knowledge graph in MongoDB 7 collections",
        at("2026-01-11"),
        session_id="sess-1",
        turn="t1",
    )
    b.edge(dec, "MENTIONS", neo4j)
    b.edge(b.out.turns["t1"], "MENTIONS", falcon, count=1)
    b.document(
        "neo",
        "Neo4j Vector Index Guide",
        "https://neo4j.com/docs/vector-indexes",
        "url",
        "en",
        at("2026-01-05"),
        [("s00-overview", "Overview", ["Neo4j vector indexes of the other tenant, Project Falcon edition."])],
        tags=["neo4j"],
        topics=["search"],
    )
    return b.write()


def stray_edges(brain: Brain, main: SeededGraph, other: SeededGraph) -> None:
    """Edges that should never exist across tenants, written on purpose: traversal must not follow them."""
    write_edges(
        brain,
        [
            {"src": other.ids["dec_storage"], "dst": main.ids["neo4j"], "type": "MENTIONS", "props": {}},
            {
                "src": main.ids["falcon"],
                "dst": other.ids["neo4j"],
                "type": "RELATED_TO",
                "props": {"weight": 9},
            },
        ],
    )


# ---------------------------------------------------------------------------------------- test helpers
def plan(*queries: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A RetrievalPlan dict: version 0.1, the queries, and any other top-level fields."""
    return {"version": "0.1", "queries": list(queries), **fields}


def q(text: str, mode: str = "hybrid", **fields: Any) -> dict[str, Any]:
    return {"text": text, "mode": mode, **fields}


def evidence_ids(pack: Any) -> list[str]:
    return [ev.id for ev in pack.evidences]


# Budget and ranking that leave fusion's order alone: no rerank, no tie-break, no caps.
PLAIN_RANKING: dict[str, Any] = {
    "fusion": {"method": "rrf", "rrf_k": 60, "weights": {}},  # equal weights, not the config's per-mode ones
    "rerank": {"enabled": False},
    "tie_breaker": "none",
}
NO_CAPS: dict[str, Any] = {
    "top_k": 100,
    "per_mode_k": {},
    "diversity": {"by_document": None, "by_source": None, "by_section": None},
}
