"""A small hybrid retriever used in the graphbrain demo: vector and full-text hits fused with RRF."""

from __future__ import annotations

from dataclasses import dataclass

RRF_K = 60


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk with the rank it had in its own result list."""

    chunk_id: str
    score: float
    rank: int
    mode: str


def rrf_fuse(*result_lists: list[Hit], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fuse ranked lists with reciprocal rank fusion.

    Each list adds 1 / (k + rank) to every chunk it contains, so a chunk found by both the vector
    index and the full-text index rises above one found by a single mode.
    """
    fused: dict[str, float] = {}
    for hits in result_lists:
        for hit in hits:
            fused[hit.chunk_id] = fused.get(hit.chunk_id, 0.0) + 1.0 / (k + hit.rank)
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))


class HybridRetriever:
    """Runs the vector query and the full-text query, then fuses their results."""

    def __init__(self, vector_search, fulltext_search, top_k: int = 10) -> None:
        self.vector_search = vector_search
        self.fulltext_search = fulltext_search
        self.top_k = top_k

    def retrieve(self, query: str) -> list[tuple[str, float]]:
        vector_hits = self.vector_search(query, self.top_k * 5)
        text_hits = self.fulltext_search(query, self.top_k * 5)
        return rrf_fuse(vector_hits, text_hits)[: self.top_k]


# Diversity is applied after fusion: one chunk per section keeps the evidence varied.
def diversify(fused: list[tuple[str, float]], section_of: dict[str, str], per_section: int = 1) -> list[str]:
    """Keep at most ``per_section`` chunks from each section, in fused order."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for chunk_id, _score in fused:
        section = section_of.get(chunk_id, chunk_id)
        if seen.get(section, 0) < per_section:
            seen[section] = seen.get(section, 0) + 1
            out.append(chunk_id)
    return out


if __name__ == "__main__":
    demo = [Hit("c1", 0.9, 1, "vector"), Hit("c2", 0.8, 2, "vector")]
    print(rrf_fuse(demo, [Hit("c2", 12.0, 1, "fulltext")]))
