"""The cases a new user hit (issue 17), each through commit_turn on every backend: whole-word keys,
true entity types, the entity gate, documents and conversations sharing entities, Chinese dates,
questions without a mark, and a decision with a deadline giving a task as well."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graphbrain import Brain
from graphbrain.resources.sources import ManualText

TUESDAY = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def commit(brain: Brain, turn_id: str, text: str, *, at: datetime = TUESDAY, **meta: Any) -> Any:
    return brain.commit_turn(
        "s-new-user",
        {
            "turn_id": turn_id,
            "at": at.isoformat(),
            "messages": [{"message_id": f"{turn_id}-u", "role": "user", "content": text}],
            "metadata": meta,
        },
    )


def written(result: Any, prefix: str = "") -> list[str]:
    return [w.key for w in result.memory_written if w.key.startswith(prefix)]


def item(brain: Brain, key: str) -> dict[str, Any]:
    import json

    rows = brain.store.cypher(
        "MATCH (m:Memory {namespace: $ns, key: $key, status: 'active'}) RETURN m.value_json AS v",
        {"ns": brain.namespace, "key": key},
    ).rows
    assert rows, key
    return dict(json.loads(rows[0]["v"]))


def test_keys_are_whole_words(brain: Brain) -> None:
    keys = written(commit(brain, "k1", "We decided to deploy Atlas on Kubernetes."), "decision:")
    assert keys and all("atla-" not in k and "kubernete-" not in k and not k.endswith("kubernete") for k in keys)
    assert any("atlas" in k and "kubernetes" in k for k in keys), keys
    keys = written(commit(brain, "k2", "We're going with Postgres for billing."), "decision:")
    assert keys == ["decision:general:billing"], keys
    res = commit(brain, "k3", "I prefer tabs over spaces.")
    assert written(res, "pref:") == ["pref:coding:indentation"]
    assert written(res, "decision:") == []


def test_the_key_of_a_decision_names_its_subject(brain: Brain) -> None:
    keys = written(commit(brain, "k4", "We decided to deploy Orion on Kubernetes.", project="orion"), "decision:")
    assert keys == ["decision:orion:deploy-on-kubernetes"]


def test_entity_types_are_not_person_by_default(brain: Brain) -> None:
    res = commit(brain, "e1", "Let's use Atlas for search; the API goes through RRF fusion.")
    kinds = {e["name"]: e["kind"] for e in res.explain.entities}
    assert kinds.get("Atlas") == "concept", kinds
    assert all(kind not in ("person", "org") for name, kind in kinds.items() if name in ("RRF", "API")), kinds
    res = commit(brain, "e2", "全文索引这周五之前要调好。")
    kinds = {e["name"]: e["kind"] for e in res.explain.entities}
    assert kinds.get("全文索引") == "concept", kinds


def test_named_people_and_components_pass_the_gate_on_one_mention(brain: Brain) -> None:
    res = commit(brain, "g1", "Alice leads the Atlas project and Dana owns the billing service.")
    passed = {e["name"]: e for e in res.explain.entities if e["passed"]}
    assert {"Alice", "Dana", "billing service"} <= set(passed), res.explain.entities
    assert passed["Alice"]["kind"] == "person" and passed["billing service"]["kind"] == "concept"
    res = commit(brain, "g2", "The billing service is blocked on the auth service migration.")
    assert "auth service" in {e["name"] for e in res.explain.entities if e["passed"]}
    res = commit(brain, "g3", "张伟负责计费服务。")
    assert {"张伟", "计费服务"} <= {e["name"] for e in res.explain.entities if e["passed"]}


def test_documents_and_conversations_share_entities(brain: Brain) -> None:
    doc = ManualText(
        "# Atlas\n\nAtlas is the search service of the platform. Atlas stores its metadata in Postgres, "
        "and the Atlas team runs the billing service too.",
        title="atlas.md",
    )
    brain.ingest(doc)
    view = brain.entity("Atlas")
    assert view["documents"], view
    commit(brain, "d1", "We decided to move Atlas to the new cluster.")
    view = brain.entity("Atlas")
    assert view["documents"] and view["turns"], view


def test_chinese_decision_with_a_deadline(brain: Brain) -> None:
    res = commit(brain, "z1", "我们决定用 Neo4j 做记忆存储，下周五前完成 schema。", project="graphbrain")
    decisions, tasks = written(res, "decision:"), written(res, "task:")
    assert decisions == ["decision:graphbrain:记忆存储"], decisions
    assert len(tasks) == 1 and "schema" in tasks[0], tasks
    assert item(brain, tasks[0])["due"] == "2026-12-11"  # 下周五 said on a Tuesday: next week's Friday
    assert "下周五" not in item(brain, decisions[0])["topic"]


def test_english_decision_with_a_deadline(brain: Brain) -> None:
    res = commit(brain, "z2", "We decided to use Postgres for billing, and to migrate the invoices by next Friday.")
    assert written(res, "decision:") == ["decision:general:billing"]
    tasks = written(res, "task:")
    assert len(tasks) == 1 and item(brain, tasks[0])["due"] == "2026-12-11"


def test_chinese_dates_resolve_against_the_turn(brain: Brain) -> None:
    cases = {
        "这周五前要把同义词表整理出来。": "2026-12-04",
        "我得在月底前把交接文档写完。": "2026-12-31",
        "需要在三月五日前更新网关证书。": "2027-03-05",
        "3月5号之前要把会员系统上线。": "2027-03-05",
        "三月底前要完成日志迁移。": "2027-03-31",
    }
    for i, (text, due) in enumerate(cases.items()):
        tasks = written(commit(brain, f"zd{i}", text), "task:")
        assert len(tasks) == 1, (text, tasks)
        assert item(brain, tasks[0])["due"] == due, text


def test_a_chinese_question_without_a_mark_writes_nothing(brain: Brain) -> None:
    for text in ("我们用的是什么数据库", "What database do we use"):
        res = commit(brain, f"q-{len(text)}", text)
        assert [w for w in res.memory_written if w.type.value != "entities"] == [], text


def test_a_ref_and_the_url_said_in_the_turn_are_one_entity(brain: Brain) -> None:
    said = "https://docs.example.com/guide"
    res = brain.commit_turn(
        "s-new-user",
        {
            "turn_id": "r1",
            "at": TUESDAY.isoformat(),
            "messages": [{"message_id": "r1-u", "role": "user", "content": f"The setup steps are in {said} ."}],
            "refs": [{"type": "url", "uri": "HTTPS://Docs.Example.com:443/guide/?utm_source=chat#install"}],
        },
    )
    assert res.status == "committed"
    refs = brain.store.cypher("MATCH (r:Ref {namespace: $ns}) RETURN r.uri AS uri", {"ns": brain.namespace}).rows
    entities = brain.store.cypher(
        "MATCH (e:Entity {namespace: $ns, kind: 'url'}) RETURN e.canonical AS canonical, e.key AS key",
        {"ns": brain.namespace},
    ).rows
    assert [r["uri"] for r in refs] == [said]
    assert [e["canonical"] for e in entities] == [said]  # one Entity for the ref and the URL as said
