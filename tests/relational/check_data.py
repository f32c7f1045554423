"""Check the relational recall set in tests/relational/data/ and print a summary table.

    python tests/relational/check_data.py            # exit 1 on any error

Errors: the structure (ids, roles, sessions), evidence ids that do not exist, hop counts that do not
match the evidence, an answer term missing from the last evidence turn or present in the question,
one turn holding both the question's thing and the answer (a shortcut), a path whose links are not
named in the turns they join (unless the question says note: alias), too much word overlap between the
question and the answer turn. Warnings: links closer than 15 turns in one session, answer terms that
also occur outside the evidence (to read by hand).

Independent of graphbrain: it reads only the YAML.
"""

from __future__ import annotations

import re
import sys
from datetime import datetime
from pathlib import Path

import yaml

DATA = Path(__file__).resolve().parent / "data"
MIN_TURNS, MAX_TURNS, MIN_QUESTIONS = 50, 80, 8
MIN_DISTANCE = 15

EN_STOP = set(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "from",
        "by",
        "with",
        "about",
        "into",
        "over",
        "after",
        "before",
        "up",
        "down",
        "out",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "will",
        "would",
        "should",
        "could",
        "can",
        "may",
        "might",
        "must",
        "i",
        "me",
        "my",
        "we",
        "us",
        "our",
        "you",
        "your",
        "he",
        "him",
        "his",
        "she",
        "her",
        "it",
        "its",
        "they",
        "them",
        "their",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "anything",
        "something",
        "all",
        "any",
        "some",
        "no",
        "not",
        "only",
        "just",
        "again",
        "also",
        "still",
        "then",
        "than",
        "so",
        "too",
        "very",
        "way",
        "get",
        "got",
        "if",
        "let's",
        "s",
        "ll",
        "d",
        "m",
        "re",
        "ve",
    ]
)
# Chinese: function characters dropped before taking character bigrams.
ZH_STOP = set("的了是在和也都就还要会得把被给这那个些吗呢吧啊呀么什怎哪谁几该")


def en_words(text: str) -> set[str]:
    words = set()
    for w in re.findall(r"[a-z0-9][a-z0-9'\-]*", text.lower()):
        w = w.strip("'").removesuffix("'s")
        if w in EN_STOP or len(w) < 2:
            continue
        for suf in ("ing", "ed", "es", "s"):
            if w.endswith(suf) and len(w) - len(suf) >= 3:
                w = w[: -len(suf)]
                break
        words.add(w)
    return words


def zh_words(text: str) -> set[str]:
    grams = set()
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        run = "".join(c for c in run if c not in ZH_STOP)
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    grams.update(en_words(" ".join(re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", text))))
    return grams


def check(path: Path) -> tuple[dict, list[str], list[str]]:
    errors: list[str] = []
    warnings: list[str] = []
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = path.name

    def err(msg: str) -> None:
        errors.append(f"{name}: {msg}")

    def warn(msg: str) -> None:
        warnings.append(f"{name}: {msg}")

    lang = doc.get("language")
    if lang not in ("en", "zh"):
        err(f"language {lang!r}")
    if not doc.get("title"):
        err("no title")
    words = zh_words if lang == "zh" else en_words

    turns: dict[str, dict] = {}
    order: dict[str, tuple[int, int]] = {}  # id -> (session index, turn index in the file)
    speakers: set[str] = set()
    n = 0
    session_ids = set()
    for si, session in enumerate(doc.get("sessions") or []):
        sid = session.get("session_id")
        if not sid or sid in session_ids:
            err(f"session {si}: missing or repeated session_id {sid!r}")
        session_ids.add(sid)
        try:
            datetime.fromisoformat(str(session.get("at")).replace("Z", "+00:00"))
        except ValueError:
            err(f"session {sid}: bad 'at' {session.get('at')!r}")
        for t in session.get("turns") or []:
            tid = t.get("id")
            if not tid or tid in turns:
                err(f"missing or repeated turn id {tid!r}")
                continue
            if t.get("role") not in ("user", "assistant"):
                err(f"{tid}: role {t.get('role')!r}")
            if not isinstance(t.get("text"), str) or not t["text"].strip():
                err(f"{tid}: no text")
            unknown = set(t) - {"id", "speaker", "role", "text", "filler"}
            if unknown:
                err(f"{tid}: unknown keys {sorted(unknown)}")
            if t.get("role") == "user" and t.get("speaker"):
                speakers.add(t["speaker"])
            turns[tid] = t
            order[tid] = (si, n)
            n += 1
    if not MIN_TURNS <= n <= MAX_TURNS:
        err(f"{n} turns, want {MIN_TURNS}-{MAX_TURNS}")
    if not 3 <= len(speakers) <= 5:
        err(f"{len(speakers)} speakers: {sorted(speakers)}")

    questions = doc.get("questions") or []
    if len(questions) < MIN_QUESTIONS:
        err(f"{len(questions)} questions, want >= {MIN_QUESTIONS}")
    hops_count = {2: 0, 3: 0}
    qids = set()
    for i, q in enumerate(questions):
        qid = q.get("id", f"question {i}")
        if qid in qids:
            err(f"{qid}: repeated question id")
        qids.add(qid)
        unknown = set(q) - {"id", "q", "hops", "evidence", "path", "answer", "answer_terms", "note", "distractors"}
        if unknown:
            err(f"{qid}: unknown keys {sorted(unknown)}")
        hops, ev, path_, terms = (
            q.get("hops"),
            q.get("evidence") or [],
            q.get("path") or [],
            q.get("answer_terms") or [],
        )
        text = q.get("q", "")
        if hops not in (2, 3):
            err(f"{qid}: hops {hops!r}")
            continue
        hops_count[hops] += 1
        if len(ev) != hops:
            err(f"{qid}: {len(ev)} evidence turns for {hops} hops")
        if len(path_) != hops + 1:
            err(f"{qid}: path has {len(path_)} items for {hops} hops")
        missing = [e for e in ev if e not in turns]
        if missing:
            err(f"{qid}: evidence ids not in the file: {missing}")
            continue
        if any(turns[e].get("filler") for e in ev):
            err(f"{qid}: a filler turn is evidence")
        if len(set(ev)) != len(ev):
            err(f"{qid}: repeated evidence")
        last = turns[ev[-1]]["text"]
        if not terms:
            err(f"{qid}: no answer_terms")
        for term in terms:
            if term.lower() not in last.lower():
                err(f"{qid}: answer term {term!r} not in the last evidence turn {ev[-1]}")
            if term.lower() in text.lower():
                err(f"{qid}: answer term {term!r} is in the question")
            if term.lower() not in q.get("answer", "").lower():
                err(f"{qid}: answer term {term!r} not in the answer")
            others = [tid for tid, t in turns.items() if tid not in ev and term.lower() in t["text"].lower()]
            if others:
                warn(f"{qid}: answer term {term!r} also in {others}")
            for tid, t in turns.items():
                if (
                    tid != ev[0]
                    and path_
                    and path_[0].lower() in t["text"].lower()
                    and term.lower() in t["text"].lower()
                ):
                    err(f"{qid}: shortcut, {tid} holds both {path_[0]!r} and {term!r}")
        # links: path[0] in the question and in the first turn; path[k] in evidence k-1 and k; the last in the last turn
        alias = q.get("note") == "alias"
        misses = []
        if len(path_) == hops + 1:
            if path_[0].lower() not in text.lower():
                misses.append(f"{path_[0]!r} not in the question")
            if path_[0].lower() not in turns[ev[0]]["text"].lower():
                misses.append(f"{path_[0]!r} not in {ev[0]}")
            for k in range(1, hops):
                for e in (ev[k - 1], ev[k]):
                    if path_[k].lower() not in turns[e]["text"].lower():
                        misses.append(f"{path_[k]!r} not in {e}")
            if path_[-1].lower() not in last.lower():
                misses.append(f"{path_[-1]!r} not in {ev[-1]}")
        if misses and not alias:
            err(f"{qid}: path: {'; '.join(misses)}")
        if alias and not misses:
            warn(f"{qid}: marked alias but every link is named the same way")
        for a, b in zip(ev, ev[1:], strict=False):
            (sa, ia), (sb, ib) = order[a], order[b]
            if sa == sb and abs(ia - ib) < MIN_DISTANCE:
                warn(f"{qid}: {a} and {b} are {abs(ia - ib)} turns apart in one session")
        shared = words(text) & words(last)
        if len(shared) > 1:
            err(f"{qid}: question and answer turn share {sorted(shared)}")
        q["_shared"] = sorted(shared)
        for d in q.get("distractors") or []:
            if d not in turns:
                err(f"{qid}: distractor {d} not in the file")
            elif d in ev:
                err(f"{qid}: distractor {d} is evidence")
    filler = sum(1 for t in turns.values() if t.get("filler"))
    row = {
        "file": name,
        "lang": lang,
        "sessions": len(session_ids),
        "turns": n,
        "speakers": len(speakers),
        "filler": filler,
        "q": len(questions),
        "2hop": hops_count[2],
        "3hop": hops_count[3],
        "alias": sum(1 for q in questions if q.get("note") == "alias"),
    }
    return row, errors, warnings


def main() -> int:
    rows, errors, warnings = [], [], []
    for path in sorted(DATA.glob("*.yaml")):
        row, e, w = check(path)
        rows.append(row)
        errors += e
        warnings += w
    head = (
        f"{'file':<18} {'lang':<4} {'sess':>4} {'turns':>5} {'spk':>3} {'filler':>11} "
        f"{'q':>3} {'2-hop':>5} {'3-hop':>5} {'alias':>5}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        share = f"{r['filler']} ({r['filler'] / r['turns']:.0%})"
        print(
            f"{r['file']:<18} {r['lang']:<4} {r['sessions']:>4} {r['turns']:>5} {r['speakers']:>3} {share:>11} "
            f"{r['q']:>3} {r['2hop']:>5} {r['3hop']:>5} {r['alias']:>5}"
        )
    print("-" * len(head))
    for lang in ("en", "zh", None):
        rs = [r for r in rows if lang is None or r["lang"] == lang]
        t = sum(r["turns"] for r in rs)
        f = sum(r["filler"] for r in rs)
        label = lang or "all"
        print(
            f"{label:<18} {'':<4} {sum(r['sessions'] for r in rs):>4} {t:>5} {'':>3} {f'{f} ({f / t:.0%})':>11} "
            f"{sum(r['q'] for r in rs):>3} {sum(r['2hop'] for r in rs):>5} {sum(r['3hop'] for r in rs):>5} "
            f"{sum(r['alias'] for r in rs):>5}"
        )
    en = sum(r["q"] for r in rows if r["lang"] == "en")
    zh = sum(r["q"] for r in rows if r["lang"] == "zh")
    if en != zh:
        errors.append(f"{en} English questions, {zh} Chinese")
    if en + zh < 32:
        errors.append(f"{en + zh} questions, want >= 32")
    if sum(r["3hop"] for r in rows) < 10:
        errors.append("fewer than 10 three-hop questions")
    for lang in ("en", "zh"):
        if sum(1 for r in rows if r["lang"] == lang) < 2:
            errors.append(f"fewer than 2 {lang} conversations")
    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("ERROR:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
