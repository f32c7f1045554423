"""FalkorDB's full text, Lucene-like: the pre-tokenised copies this store writes and the queries it sends.

RediSearch does not segment Chinese with its default tokenizer, and its ``chinese`` one drops English
tokens; so each indexed field has a copy (``text_fts``, ...) of lower-cased words and CJK character
bigrams, like Lucene's ``cjk`` analyzer, and a query's escaped Lucene text becomes the same tokens, OR-ed.
"""

from __future__ import annotations

import re

_CJK = (
    "\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
)
# A Latin word as Lucene's StandardTokenizer (UAX #29) sees it: a '.' or an apostrophe between two letters
# and a '.' or ',' between two digits do not break it ("neo4j.com", "5.26", "1,000", "don't" are one token).
_LATIN = rf"[^\W{_CJK}]"
_JOIN = rf"(?:(?<=[^\W\d_{_CJK}])[.'’](?=[^\W\d_{_CJK}])|(?<=\d)[.,](?=\d))"
_WORD = re.compile(rf"[{_CJK}]+|{_LATIN}+(?:{_JOIN}{_LATIN}+)*")
# RediSearch splits on those characters itself, so inside a token they are written as '_' (not a separator).
_JOINER = re.compile(r"[.,'\u2019]")
_IS_CJK = re.compile(rf"[{_CJK}]")
_LUCENE_ESCAPE = re.compile(r"\\(.)")
MAX_QUERY_TERMS = 256
# Lucene's cjk analyzer drops these (CJKAnalyzer's default stop set, as Neo4j 5.26's
# db.index.fulltext.listAvailableAnalyzers() lists it), so a query leaves them out here too. Besides
# matching what Neo4j matches, it keeps a query off the words most texts hold: RediSearch yields every
# match with no top-k, and "the" alone matched most English items, a cost that grew with the namespace.
_CJK_STOP_WORDS_TEXT = """
a and are as at be but by for if in into is it no not of on or s such t that the their then there these they
this to was will with www
"""
CJK_STOP_WORDS = frozenset(_CJK_STOP_WORDS_TEXT.split())
# A term no tokeniser output can equal (it has a character outside \w): a query with no words matches nothing.
_NO_MATCH = "nomatch__graphbrain__nomatch"

# label → (source property, indexed copy) pairs; docs/graph-model.md lists the Neo4j full-text indexes.
# cypher/fulltext/pending.falkordb.cypher returns every source, admin/index_hand_written the pairs: keep them
# in step with this table.
FTS_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "Memory": (("text", "text_fts"),),
    "Chunk": (("text", "text_fts"), ("section_title", "section_title_fts")),
    "Entity": (("name", "name_fts"), ("aliases_text", "aliases_text_fts")),
}
FTS_PENDING = "FtsPending"


def fts_tokens(text: str | None) -> list[str]:
    """Lucene-cjk-like tokens: lower-cased words; CJK runs as overlapping bigrams (a lone CJK char as is)."""
    out: list[str] = []
    for m in _WORD.finditer((text or "").lower()):
        run = m.group()
        if _IS_CJK.match(run):
            out.extend(run[i : i + 2] for i in range(max(1, len(run) - 1)))
        else:
            out.append(_JOINER.sub("_", run))
    return out


def fts_document(text: str | None) -> str:
    """The pre-tokenised copy of a text property (space-separated tokens)."""
    return " ".join(fts_tokens(text))


def fts_query(lucene: str | None) -> str | None:
    """An escaped Lucene query (what domain code sends) → the same words OR-ed in RediSearch syntax, stop
    words out as Lucene's cjk analyzer leaves them out (a query of stop words alone matches nothing)."""
    if lucene is None:
        return None
    tokens = fts_tokens(_LUCENE_ESCAPE.sub(r"\1", lucene))
    terms = list(dict.fromkeys(t for t in tokens if t not in CJK_STOP_WORDS))[:MAX_QUERY_TERMS]
    if not terms:
        return _NO_MATCH
    return " | ".join(terms)
