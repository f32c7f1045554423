"""Multi-hop recall through compose_context on the bilingual relational set (``tests/relational/data``).

Every conversation is committed turn by turn and every question asked through ``compose_context``, on
each backend, exactly as ``graphbrain bench relational`` runs them (it is that code). The answers lie two
and three hops from what the question names; the floor is the issue's: recall@10 of the chain's turns
at least 0.9 in each language, every answer that is found explained by a path, no filler turn among the
evidence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphbrain.bench.relational import format_relational, run_relational

DATA = Path(__file__).resolve().parent / "data"
FLOOR = 0.9


def test_multi_hop_recall_in_each_language(brain_factory: Any) -> None:
    report = run_relational(brain_factory(), sorted(DATA.glob("*.yaml")))
    table = format_relational(report)
    assert set(report["by_language"]) == {"en", "zh"}, table
    for lang, row in report["by_language"].items():
        assert row["recall@10"] >= FLOOR, f"{lang} recall@10 {row['recall@10']} below {FLOOR}\n{table}"
        assert row["filler_in_evidence"] == 0, f"{lang}: filler turns took evidence slots\n{table}"
    for q in report["questions"]:
        if q["answer_found"]:
            assert q["answer_path"], f"{q['id']}: the answer came back without a path\n{table}"
