"""``graphbrain bench extract``: extraction quality on the labelled set, per language and per type.

The set (``tests/extraction/*.yaml``, see its README) holds hand-written sessions with, per turn, the
memory items and entities a person expects. Each session is replayed in order through what
``commit_turn`` runs before it writes: ``extract`` → the retention gate → entity candidates → the
entity gate, with the session's state carried from turn to turn (active items for status changes,
the entity window for the frequency rule, the entities already known). No database is involved: the
gates are pure functions, and the pipeline calls the same ones (``retention.gate_turn_entities``).

Printed in one run: precision / recall / F1 of memory items and of entities per language (en, zh,
mixed, all), item F1 per type and language, the entity-type confusion table (gold kind × predicted
kind, over the entities found), and every key word that is not a word of its turn (a chopped word).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from graphbrain.commit import keys
from graphbrain.commit.extract import Candidate, ExtractionContext, classify_utterance, extract
from graphbrain.commit.retention import EntityGate, TurnEntities, gate, gate_turn_entities
from graphbrain.config import BrainConfig
from graphbrain.contracts import MemoryType
from graphbrain.nlp import canonicalize, has_cjk
from graphbrain.nlp.lemmas import lemma_forms

LANGS = ("en", "zh", "mixed")
DEFAULT_SET = Path(__file__).resolve().parents[2] / "tests" / "extraction"
# Words a key may hold that are not in the turn: the vocabulary keys are made of (facets, attributes,
# event kinds, subjects), not words of the message.
_KEY_VOCABULARY = frozenset(
    {name for _, _, facet in keys.PREF_FACETS for name in facet.split("-")}
    | {name for _, _, facet in keys.PREF_FACETS for name in keys.topic_slug(facet).split("-")}
    | {"note", "user", "agent", "release", "incident", "milestone", "meeting", "general", "undated", "h"}
    | {"name", "occupation", "employer", "location", "hometown", "timezone"}
)
_WORD_RE = re.compile(r"[a-z0-9]+")


# ------------------------------------------------------------------------------------------ the set
@dataclass(frozen=True)
class GoldItem:
    type: str
    key: tuple[str, ...]
    status: str | None = None
    due: str | None = None


@dataclass(frozen=True)
class GoldEntity:
    name: str
    kind: str

    @property
    def canonical(self) -> str:
        return canonicalize(self.name, self.kind)


@dataclass(frozen=True)
class Turn:
    id: str
    lang: str
    role: str
    text: str
    items: tuple[GoldItem, ...]
    entities: tuple[GoldEntity, ...]


@dataclass(frozen=True)
class Session:
    name: str
    now: datetime
    project: str | None
    known: tuple[GoldEntity, ...]
    turns: tuple[Turn, ...]


def _date(v: Any) -> str | None:
    return None if v is None else str(v)


def load_set(path: Path = DEFAULT_SET) -> list[Session]:
    """Every session of the set (a directory of .yaml files, or one file)."""
    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    if not files:
        raise FileNotFoundError(f"no .yaml files in {path}")
    out: list[Session] = []
    for f in files:
        for s in yaml.safe_load(f.read_text(encoding="utf-8")) or []:
            now = s["now"] if isinstance(s["now"], datetime) else datetime.fromisoformat(str(s["now"]))
            turns = tuple(
                Turn(
                    id=t["id"],
                    lang=t["lang"],
                    role=t.get("role", "user"),
                    text=t["text"],
                    items=tuple(
                        GoldItem(i["type"], tuple(str(k) for k in i["key"]), i.get("status"), _date(i.get("due")))
                        for i in t.get("items") or []
                    ),
                    entities=tuple(GoldEntity(str(e["name"]), e["kind"]) for e in t.get("entities") or []),
                )
                for t in s["turns"]
            )
            known = tuple(GoldEntity(str(e["name"]), e["kind"]) for e in s.get("known") or [])
            out.append(Session(s["session"], now, s.get("project"), known, turns))
    ids = Counter(t.id for s in out for t in s.turns)
    dup = [i for i, n in ids.items() if n > 1]
    if dup:
        raise ValueError(f"duplicate turn ids in the set: {dup}")
    return out


# ------------------------------------------------------------------------------------------ replay
@dataclass
class TurnOutput:
    items: list[Candidate]
    entities: list[tuple[str, str, str]]  # (canonical, kind, name) of the entities the turn writes


@dataclass
class _SessionState:
    active: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    window: list[list[str]] = field(default_factory=list)
    known: dict[str, tuple[str, str]] = field(default_factory=dict)  # canonical -> (kind, name)

    def lexicon(self) -> dict[str, tuple[str, str]]:
        return {name: (kind, canonical) for canonical, (kind, name) in self.known.items()}


def replay(sessions: Sequence[Session], cfg: BrainConfig) -> dict[str, TurnOutput]:
    """What commit_turn would keep from every turn, session by session, state carried between turns."""
    retention = cfg.policies.retention
    egate = EntityGate(retention.entity_gate)
    out: dict[str, TurnOutput] = {}
    for s in sessions:
        st = _SessionState()
        for e in s.known:
            st.known[e.canonical] = (e.kind, e.name)
        for t in s.turns:
            ctx = ExtractionContext(
                active_items=list(st.active),
                known_projects=[s.project] if s.project else (),
                default_project=s.project,
                now=s.now,
                nlp=cfg.nlp,
            )
            utterance = classify_utterance(t.text)
            cands = extract(t.text, t.role, context=ctx)  # type: ignore[arg-type]
            kept, _ = gate(cands, role=t.role, utterance_class=utterance, cfg=retention)
            found = TurnEntities.collect([(t.role, t.text)], cfg=cfg.nlp, lexicon=st.lexicon())
            decisions = gate_turn_entities(
                found,
                egate,
                known=set(st.known),
                window=st.window,
                kept=kept,
                texts=[(t.role, t.text)],
            )
            passed: list[tuple[str, str, str]] = [(d.canonical, d.kind, d.name) for d in decisions if d.passed]
            out[t.id] = TurnOutput(kept, passed)
            # The state commit_turn leaves behind for the next turn.
            by_key = {(ty, k): i for i, (ty, k, _) in enumerate(st.active)}
            for c in kept:
                if c.type == MemoryType.entities:
                    continue
                row = (c.type.value, c.key, dict(c.value))
                if c.retracts_key and (c.type.value, c.retracts_key) in by_key:
                    st.active.pop(by_key.pop((c.type.value, c.retracts_key)))
                    by_key = {(ty, k): i for i, (ty, k, _) in enumerate(st.active)}
                if (c.type.value, c.key) in by_key:
                    st.active.pop(by_key[(c.type.value, c.key)])
                st.active.append(row)
                by_key = {(ty, k): i for i, (ty, k, _) in enumerate(st.active)}
            st.window.append(sorted(found.entities))
            for canonical, kind, name in passed:
                st.known.setdefault(canonical, (kind, name))
    return out


# ------------------------------------------------------------------------------------------ scoring
def _key_tokens(key: str) -> set[str]:
    return set(re.split(r"[:\-/_.\s]+", key.casefold()))


def _word_ok(word: str, key: str, tokens: set[str]) -> bool:
    for part in keys.slugify(word).split("-"):
        if has_cjk(part):
            if part not in key:
                return False
        elif part not in tokens:
            return False
    return True


def item_matches(gold: GoldItem, c: Candidate) -> bool:
    if c.type.value != gold.type:
        return False
    tokens = _key_tokens(c.key)
    if not all(_word_ok(w, c.key.casefold(), tokens) for w in gold.key):
        return False
    if gold.status is not None and c.value.get("status") != gold.status:
        return False
    if gold.due is not None:
        got = c.value.get("due") if c.type == MemoryType.tasks else c.value.get("by")
        if str(got) != gold.due:
            return False
    return True


def _match(gold: Sequence[Any], pred: Sequence[Any], ok: Any) -> list[tuple[int, int]]:
    """Greedy one-to-one matching, gold in order; each prediction matches at most one label."""
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            if pi not in used and ok(g, p):
                used.add(pi)
                pairs.append((gi, pi))
                break
    return pairs


@dataclass
class PRF:
    gold: int = 0
    pred: int = 0
    hit: int = 0

    def add(self, gold: int, pred: int, hit: int) -> None:
        self.gold += gold
        self.pred += pred
        self.hit += hit

    @property
    def precision(self) -> float:
        return self.hit / self.pred if self.pred else (1.0 if not self.gold else 0.0)

    @property
    def recall(self) -> float:
        return self.hit / self.gold if self.gold else (1.0 if not self.pred else 0.0)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
            "gold": self.gold,
            "predicted": self.pred,
            "matched": self.hit,
        }


def _text_words(text: str) -> set[str]:
    words = set(_WORD_RE.findall(text.casefold()))
    # "PDFs" → pdf: keys take the singular of an acronym's plural (``keys.topic_slug``).
    acronyms = {w[:-1].casefold() for w in re.findall(r"\b[A-Z][A-Z0-9]+s\b", text)}
    return words | acronyms | {f for w in words for f in lemma_forms(w)}


def chopped_words(c: Candidate, text: str, words: set[str]) -> list[str]:
    """Key words of ``c`` that are neither a word of the turn, nor a lemma of one, nor key vocabulary."""
    if c.type == MemoryType.entities:
        return []
    parts = c.key.split(":")
    tail = parts[2:] if len(parts) > 2 else parts[1:]
    out = []
    for tok in _WORD_RE.findall(" ".join(tail).replace("-", " ")):
        if tok.isdigit() or len(tok) < 3 or tok in words or tok in _KEY_VOCABULARY:
            continue
        if re.fullmatch(r"v?\d+|h", tok) or re.fullmatch(r"[0-9a-f]{8}", tok):
            continue
        out.append(tok)
    return out


@dataclass
class Report:
    turns: int
    sessions: int
    per_lang_turns: dict[str, int]
    items: dict[str, PRF]  # by language, and "all"
    items_by_type: dict[str, dict[str, PRF]]  # type -> language / "all" -> PRF
    entities: dict[str, PRF]  # found by canonical
    entities_typed: dict[str, PRF]  # canonical and kind
    confusion: dict[str, Counter[str]]  # gold kind -> predicted kind
    chopped: list[tuple[str, str, str]]  # (turn id, key, word)
    misses: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "sessions": self.sessions,
            "per_language_turns": self.per_lang_turns,
            "items": {k: v.as_dict() for k, v in self.items.items()},
            "items_by_type": {t: {k: v.as_dict() for k, v in d.items()} for t, d in self.items_by_type.items()},
            "entities": {k: v.as_dict() for k, v in self.entities.items()},
            "entities_typed": {k: v.as_dict() for k, v in self.entities_typed.items()},
            "confusion": {g: dict(c) for g, c in self.confusion.items()},
            "chopped_key_words": [{"turn": t, "key": k, "word": w} for t, k, w in self.chopped],
        }


def score(sessions: Sequence[Session], outputs: Mapping[str, TurnOutput]) -> Report:
    items = {k: PRF() for k in (*LANGS, "all")}
    by_type: dict[str, dict[str, PRF]] = defaultdict(lambda: {k: PRF() for k in (*LANGS, "all")})
    ents = {k: PRF() for k in (*LANGS, "all")}
    ents_typed = {k: PRF() for k in (*LANGS, "all")}
    confusion: dict[str, Counter[str]] = defaultdict(Counter)
    chopped: list[tuple[str, str, str]] = []
    misses: list[str] = []
    per_lang: Counter[str] = Counter()
    for s in sessions:
        session_text = ""
        for t in s.turns:
            per_lang[t.lang] += 1
            out = outputs[t.id]
            preds = [c for c in out.items if c.type != MemoryType.entities]
            pairs = _match(t.items, preds, item_matches)
            for lang in (t.lang, "all"):
                items[lang].add(len(t.items), len(preds), len(pairs))
            types = {g.type for g in t.items} | {c.type.value for c in preds}
            for ty in types:
                g_n = sum(1 for g in t.items if g.type == ty)
                p_n = sum(1 for c in preds if c.type.value == ty)
                h_n = sum(1 for gi, _ in pairs if t.items[gi].type == ty)
                for lang in (t.lang, "all"):
                    by_type[ty][lang].add(g_n, p_n, h_n)
            matched_g = {gi for gi, _ in pairs}
            matched_p = {pi for _, pi in pairs}
            for gi, g in enumerate(t.items):
                if gi not in matched_g:
                    misses.append(f"{t.id} item missed: {g.type} {list(g.key)} {g.status or ''} {g.due or ''}")
            for pi, c in enumerate(preds):
                if pi not in matched_p:
                    misses.append(f"{t.id} item extra:  {c.key} {c.value.get('status', '')} {c.value.get('due', '')}")
            session_text = (session_text + " " + t.text) if t is not s.turns[0] else t.text
            words = _text_words(session_text)  # a key made in an earlier turn keeps that turn's words
            for c in preds:
                chopped += [(t.id, c.key, w) for w in chopped_words(c, t.text, words)]

            gold_e = list(t.entities)
            epairs = _match(gold_e, out.entities, lambda g, p: g.canonical == p[0])
            typed = sum(1 for gi, pi in epairs if gold_e[gi].kind == out.entities[pi][1])
            for lang in (t.lang, "all"):
                ents[lang].add(len(gold_e), len(out.entities), len(epairs))
                ents_typed[lang].add(len(gold_e), len(out.entities), typed)
            for gi, pi in epairs:
                confusion[gold_e[gi].kind][out.entities[pi][1]] += 1
            mg = {gi for gi, _ in epairs}
            mp = {pi for _, pi in epairs}
            misses += [f"{t.id} entity missed: {g.name} ({g.kind})" for gi, g in enumerate(gold_e) if gi not in mg]
            misses += [f"{t.id} entity extra:  {p[2]} ({p[1]})" for pi, p in enumerate(out.entities) if pi not in mp]
            misses += [
                f"{t.id} entity kind:   {gold_e[gi].name} {gold_e[gi].kind} -> {out.entities[pi][1]}"
                for gi, pi in epairs
                if gold_e[gi].kind != out.entities[pi][1]
            ]
    return Report(
        turns=sum(per_lang.values()),
        sessions=len(sessions),
        per_lang_turns=dict(per_lang),
        items=items,
        items_by_type=dict(by_type),
        entities=ents,
        entities_typed=ents_typed,
        confusion=dict(confusion),
        chopped=chopped,
        misses=misses,
    )


def run_extract_bench(cfg: BrainConfig, path: Path | None = None) -> Report:
    sessions = load_set(path or DEFAULT_SET)
    return score(sessions, replay(sessions, cfg))


# ------------------------------------------------------------------------------------------ printing
def _row(label: str, cells: Iterable[str]) -> str:
    return f"| {label} | " + " | ".join(cells) + " |"


def format_report(r: Report, *, verbose: bool = False) -> str:
    lines = [
        f"Extraction on the labelled set: {r.turns} turns in {r.sessions} sessions "
        f"({', '.join(f'{k} {v}' for k, v in sorted(r.per_lang_turns.items()))})",
        "",
        "| | items P | items R | items F1 | entities P | entities R | entities F1 | typed entities F1 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for lang in (*LANGS, "all"):
        i, e, et = r.items[lang], r.entities[lang], r.entities_typed[lang]
        lines.append(
            _row(
                lang,
                [f"{i.precision:.2f}", f"{i.recall:.2f}", f"{i.f1:.2f}"]
                + [f"{e.precision:.2f}", f"{e.recall:.2f}", f"{e.f1:.2f}", f"{et.f1:.2f}"],
            )
        )
    lines += ["", "| item F1 by type | en | zh | mixed | all (gold / predicted) |", "|---|---|---|---|---|"]
    for ty in sorted(r.items_by_type):
        d = r.items_by_type[ty]
        cells = [f"{d[lang].f1:.2f}" if d[lang].gold or d[lang].pred else "–" for lang in LANGS]
        cells.append(f"{d['all'].f1:.2f} ({d['all'].gold} / {d['all'].pred})")
        lines.append(_row(ty, cells))
    kinds = sorted({k for c in r.confusion.values() for k in c} | set(r.confusion))
    lines += ["", "Entity kinds, gold (rows) × predicted (columns), over the entities found:", ""]
    lines.append("| gold \\ predicted | " + " | ".join(kinds) + " |")
    lines.append("|---|" + "---|" * len(kinds))
    for g in kinds:
        if g in r.confusion:
            lines.append(_row(g, [str(r.confusion[g].get(p, 0)) for p in kinds]))
    lines += ["", f"Key words that are not a word of their turn (chopped): {len(r.chopped)}"]
    lines += [f"  {t}: {w!r} in {k}" for t, k, w in r.chopped]
    if verbose:
        lines += ["", "Differences from the labels:"] + [f"  {m}" for m in r.misses]
    return "\n".join(lines)
