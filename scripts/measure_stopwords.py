"""The stop words as search tokens: BM25 recall on LoCoMo dev, graphbrain's lists (spaCy's) vs the hand list
they replaced (issue 17: one stop-word source, check that search does not degrade).

    .venv/bin/python scripts/measure_stopwords.py LOCOMO_JSON ...   # e.g. /work/shared/data/locomo-dev/*.json

BM25 (``bench.baselines.BM25Baseline``) over ``nlp.tokenize`` tokens of the dialog turns, Snowball-stemmed as
the search analyzer does; recall@5/10/25 of the evidence turns, adversarial questions (category 5) left out.
Only the English stop words differ between the two runs (LoCoMo is English).
"""

from __future__ import annotations

import sys

from py_rust_stemmers import SnowballStemmer

import graphbrain.bench.baselines as baselines
import graphbrain.nlp.tokens as tokens
from graphbrain.bench.locomo import load_conversation
from graphbrain.nlp.stopwords import EN_STOP_WORDS, word_set

HAND_LIST = word_set(
    """
    a an the and or but if then else so of to in on at by for with from into onto about as than
    is are was were be been being am do does did done doing have has had having will would shall
    should can could may might must i me my mine we us our ours you your yours he him his she her
    hers it its they them their theirs this that these those there here what which who whom whose
    when where why how all any both each few more most other some such no nor not only own same too
    very just also again ever s t don't i'm i'll i've i'd we're we'll we've it's that's let's lets
    let please ok okay yes yeah oh up down out over under off now http https www
    """
)
KS = (5, 10, 25)


def main(paths: list[str]) -> None:
    if not paths:
        raise SystemExit("usage: measure_stopwords.py LOCOMO_JSON ... (the LoCoMo conversation files)")
    convs = [load_conversation(f) for f in paths]
    stem = SnowballStemmer("english").stem_word
    tokenize = tokens.tokenize

    def stemmed(t: str) -> list[str]:
        return [stem(w) if w.isascii() and w.isalpha() else w for w in tokenize(t)]

    baselines.tokenize = stemmed  # type: ignore[assignment]
    for name, words in (("hand list (before)", HAND_LIST), ("spaCy-based (nlp.stopwords)", EN_STOP_WORDS)):
        tokens.EN_STOP_WORDS = words  # type: ignore[misc]
        found = dict.fromkeys(KS, 0.0)
        n = 0
        for c in convs:
            bm25 = baselines.BM25Baseline([(t.dia_id, t.content) for t in c.turns])
            for q in c.questions:
                if not q.evidence or q.category == 5:
                    continue
                ranked = bm25.rank(q.text)
                n += 1
                for k in KS:
                    found[k] += len(set(ranked[:k]) & set(q.evidence)) / len(q.evidence)
        print(f"{name:30s} questions {n}  " + "  ".join(f"recall@{k} {found[k] / n:.3f}" for k in KS))


if __name__ == "__main__":
    main(sys.argv[1:])
