"""The query loader: every .cypher file loads by name; templates take integers only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphbrain.errors import QueryNotFoundError
from graphbrain.store.queries import QueryLibrary


def test_every_query_file_loads() -> None:
    lib = QueryLibrary()
    names = lib.check_all()
    assert "schema/constraints" in names and "schema/indexes" in names
    for name in names:
        assert lib.get(name).strip()


def test_missing_and_bad_names() -> None:
    lib = QueryLibrary()
    with pytest.raises(QueryNotFoundError, match="no Cypher file"):
        lib.get("schema/does_not_exist")
    with pytest.raises(QueryNotFoundError, match="bad query name"):
        lib.get("../etc/passwd")


def test_backend_specific_file_wins(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "q.cypher").write_text("RETURN 1")
    (tmp_path / "x" / "q.other.cypher").write_text("RETURN 2")
    assert QueryLibrary(tmp_path, backend="neo4j").get("x/q") == "RETURN 1"
    assert QueryLibrary(tmp_path, backend="other").get("x/q") == "RETURN 2"
    assert QueryLibrary(tmp_path).names() == ["x/q"]


def test_statements_split_and_fill(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "t.cypher").write_text("// c\nCREATE A {{dimension}};\n// only a comment;\nCREATE B;\n")
    lib = QueryLibrary(tmp_path)
    assert lib.statements("s/t", dimension=384) == ["// c\nCREATE A 384", "CREATE B"]
    with pytest.raises(TypeError):
        lib.statements("s/t", dimension="384; DROP")  # type: ignore[arg-type]


def test_falkordb_seeks_nodes_by_a_bound_id() -> None:
    """FalkorDB seeks ``MATCH (n) WHERE id(n) = x`` by id only when x is a variable bound before the
    MATCH; an expression there (``r.id``, ``toInteger(eid)``) makes it scan every node of the graph once
    per row (the full-text fill cost 8 ms a row at 63k nodes that way). Bind it first: ``WITH r, r.id AS
    nid MATCH (n) WHERE id(n) = nid``."""
    compared = re.compile(r"WHERE\s+id\(\w+\)\s*=\s*([^\s)]+)", re.IGNORECASE)
    root = QueryLibrary().path_of("schema/indexes").parents[1]
    offenders = [
        f"{path.relative_to(root)}: {line.strip()}"
        for path in sorted(root.rglob("*.falkordb.cypher"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("//")
        for value in compared.findall(line)
        if not re.fullmatch(r"\$?[A-Za-z_]\w*", value)  # a variable or a parameter
    ]
    assert offenders == []
