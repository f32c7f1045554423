"""An entity candidate (a possible mention, the signal that found it) and how overlapping ones resolve."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

__all__ = ["EntityCandidate", "EntityKind", "EntitySignal", "resolve"]

# "concept" is the neutral kind of a name nothing more is known of; "other" is a place; "topic" is only
# read (older data), no longer produced.
EntityKind = Literal["person", "org", "repo", "file", "url", "topic", "other", "concept"]
EntitySignal = Literal[
    "ner", "url", "repo", "path", "proper_noun", "quoted", "remember", "zh_noun", "known", "compound", "phrase"
]


@dataclass(frozen=True)
class EntityCandidate:
    """A possible entity mention: ``name`` as written, its ``canonical`` form, and where it is."""

    name: str
    canonical: str
    kind: EntityKind
    start: int
    end: int
    signal: EntitySignal
    argument: bool = False  # the subject or object of a clause ("Alice leads …", "… owns the feature store")
    about: bool = False  # what a statement of responsibility or a definition is about ("Dana owns the Helm charts")

    @property
    def salient(self) -> bool:
        """Real on one mention when said in a statement of fact: the subject or object of a clause that is a
        named person, organisation or place, a name the NER model vouches for ("on Android", "for KubeCon"),
        a component compound, or what a responsibility or definition is about."""
        named = self.kind in ("person", "org", "other") or self.signal in ("compound", "ner")
        return self.argument and (named or self.about)

    @property
    def structural(self) -> bool:
        """Found by its shape (URL, repo, path): the entity gate lets these in on first sight."""
        return self.signal in ("url", "repo", "path")


# Which signal wins when two candidates overlap: structure first, then what the user delimited, then
# the statistical and shape-based guesses. (A repo found inside a URL shares the URL's span on purpose.)
_SIGNAL_PRIORITY: dict[str, int] = {
    "url": 0,
    "repo": 1,
    "path": 2,
    "known": 3,
    "quoted": 4,
    "ner": 5,
    "compound": 6,
    "proper_noun": 7,
    "zh_noun": 8,
    "remember": 9,
}


def resolve(cands: Iterable[EntityCandidate]) -> list[EntityCandidate]:
    """Drop candidates that overlap a better one, give each canonical one kind, one candidate per key."""
    ordered = sorted(cands, key=lambda c: (_SIGNAL_PRIORITY[c.signal], c.start, -(c.end - c.start)))
    accepted: list[EntityCandidate] = []
    for c in ordered:
        clash = False
        for a in accepted:
            if c.start < a.end and a.start < c.end:
                # A repo and a URL found in the same URL are two facts about one span; everything else
                # that overlaps a better candidate is the same text seen by a weaker rule.
                same_url = (c.start, c.end) == (a.start, a.end) and {c.signal, a.signal} == {"url", "repo"}
                # A component compound and a known name inside it are both real ("Orion gateway",
                # "Orion"); an unknown one is part of the compound (上海 in 上海机房).
                nested = (
                    {c.signal, a.signal} == {"compound", "known"}
                    and (c.start, c.end) != (a.start, a.end)
                    and ((a.start <= c.start and c.end <= a.end) or (c.start <= a.start and a.end <= c.end))
                )
                if not same_url and not nested:
                    clash = True
                    break
        if not clash:
            accepted.append(c)
    kind_of: dict[str, EntityKind] = {}
    for c in accepted:  # accepted is in priority order: the strongest signal fixes the kind
        if c.kind not in ("url", "repo", "file"):
            kind_of.setdefault(c.canonical, c.kind)
    seen: set[tuple[str, str]] = set()
    out: list[EntityCandidate] = []
    for c in sorted(accepted, key=lambda c: c.start):
        if c.kind not in ("url", "repo", "file"):
            c = replace(c, kind=kind_of[c.canonical])
        key = (c.kind, c.canonical)
        if key in seen or not c.canonical:
            continue
        seen.add(key)
        out.append(c)
    return out
