"""Parsing the seed corpus and edge cases: sections, titles, pages, offsets, layers, errors, walking."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphbrain.errors import InputError
from graphbrain.nlp import detect_language
from graphbrain.resources import (
    ParsedDocument,
    detect_format,
    iter_files,
    parse_bytes,
    parse_file,
    parse_text,
)
from graphbrain.resources.layers import L0_MAX, L1_MAX, extract_keywords
from graphbrain.resources.walk import matches_glob

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "docs"
SEED_FILES = sorted(p.name for p in SEEDS.iterdir())


def _invariants(doc: ParsedDocument) -> None:
    """What holds for every parsed document."""
    assert doc.sections and doc.chunks
    assert len(doc.content_hash) == 64
    ids = [s.section_id for s in doc.sections]
    assert len(set(ids)) == len(ids)
    for i, s in enumerate(doc.sections):
        assert s.index == i
        assert re.fullmatch(r"s\d{2,}-[\w-]+", s.section_id), s.section_id
        assert doc.text[s.offset_start : s.offset_end] == s.text
        assert s.l2 == s.text
        assert 0 < len(s.l0) <= L0_MAX, s.l0
        assert 0 < len(s.l1) <= L1_MAX, s.l1
        assert s.title
    ends = [s.offset_start for s in doc.sections]
    assert ends == sorted(ends)
    assert [c.chunk_index for c in doc.chunks] == list(range(len(doc.chunks)))
    for s, c in doc.iter_chunks():
        assert c.section_index == s.index
        assert doc.text[c.offset_start : c.offset_end] == c.text
        assert c.page == s.page
        assert c.section_title == s.title


@pytest.mark.parametrize("name", SEED_FILES)
def test_every_seed_file_parses_with_exact_offsets(name: str) -> None:
    doc = parse_file(SEEDS / name)
    _invariants(doc)
    assert doc.source_type == "file"
    assert doc.source_uri == (SEEDS / name).resolve().as_uri()
    assert doc.metadata["file_name"] == name
    assert 1000 <= (SEEDS / name).stat().st_size <= 20_000


def test_seed_corpus_is_small_and_mixed() -> None:
    formats = {parse_file(SEEDS / n).format for n in SEED_FILES}
    assert formats == {"markdown", "text", "html", "pdf", "code"}
    languages = {parse_file(SEEDS / n).language for n in SEED_FILES}
    assert {"en", "zh"} <= languages


def test_markdown_design_doc_sections_follow_headings() -> None:
    doc = parse_file(SEEDS / "design-memory-store.md")
    assert doc.format == "markdown" and doc.mime == "text/markdown"
    assert doc.title == "Design of the graphbrain memory store"  # front matter title
    assert doc.metadata["front_matter"]["status"] == "accepted"
    assert not doc.text.startswith("---"), "front matter is not part of the indexed text"
    titles = [s.title for s in doc.sections]
    assert titles == [
        "Design of the graphbrain memory store",
        "Goals",
        "Storage engine",
        "Vector index",
        "Full-text index",
        "Fusion with RRF",
        "Open questions",
    ]
    vector = doc.sections[3]
    assert vector.heading_path == ["Design of the graphbrain memory store", "Storage engine", "Vector index"]
    assert vector.level == 3
    assert vector.section_id == "s03-storage-engine-vector-index"
    # The "# ..." line inside the code fence stays inside the Vector index section.
    assert "# this line is inside a code fence" in vector.text
    assert doc.sections[1].section_id == "s01-goals"
    assert "acme/graphbrain" in doc.text
    assert doc.language == "en"
    assert "vector index" in [k.lower() for k in doc.keywords]
    assert vector.l0.startswith("Vector index: Chunk embeddings have 384 dimensions")
    assert "Key terms:" in vector.l1


def test_chinese_markdown() -> None:
    doc = parse_file(SEEDS / "检索设计.md")
    assert doc.title == "检索设计"
    assert doc.language == "zh"
    assert [s.title for s in doc.sections[1:5]] == ["检索计划", "混合检索", "向量索引", "重排"]
    assert doc.sections[3].section_id == "s03-向量索引"
    assert doc.sections[2].l0 == "混合检索：混合检索同时运行向量检索和全文检索。"
    assert "关键词：" in doc.sections[2].l1
    assert {"检索计划", "混合检索", "向量索引"} <= set(doc.keywords)
    assert doc.source_uri.endswith("%E6%A3%80%E7%B4%A2%E8%AE%BE%E8%AE%A1.md")


def test_mixed_language_notes() -> None:
    doc = parse_file(SEEDS / "mixed-notes.md")
    assert doc.title == "周会笔记 Weekly sync notes"
    assert [s.title for s in doc.sections[1:]] == ["决策 Decisions", "Action items 待办", "讨论 Discussion"]
    assert doc.language == "mixed"  # Chinese and English: a zh or en language filter admits it
    assert "Neo4j 5.26" in doc.sections[1].text


def test_plain_text_runbook_sections_by_heading_lines() -> None:
    doc = parse_file(SEEDS / "runbook.txt")
    assert doc.format == "text"
    assert doc.title == "GRAPHBRAIN OPERATIONS RUNBOOK"
    assert [s.title for s in doc.sections] == [
        "GRAPHBRAIN OPERATIONS RUNBOOK",
        "1. Starting and stopping",
        "2. Health checks",
        "3. Rebuilding indexes",
        "4. Alerts",
        "5. Escalation",
    ]
    # The indented command is kept in the text but left out of the overview.
    starting = doc.sections[1]
    assert "systemctl start graphbrain" in starting.text
    assert "systemctl" not in starting.l1
    assert starting.l0 == "1. Starting and stopping: Start the database first, then the service."


def test_html_main_content_without_boilerplate() -> None:
    doc = parse_file(SEEDS / "release-notes.html")
    assert doc.format == "html" and doc.mime == "text/html"
    assert "graphbrain 0.3.0" in doc.title
    assert [s.title for s in doc.sections[1:]] == ["New features", "Changes", "Fixes", "Upgrading"]
    for boilerplate in ("Community", "Copyright", "Privacy", "Search the docs", "0.2.0"):
        assert boilerplate not in doc.text, boilerplate
    fixes = doc.sections[3]
    assert fixes.l0 == "Fixes: The vector index is now created with cosine similarity."
    assert "graphbrain reindex --embeddings" in fixes.text
    assert doc.language == "en"
    assert str(doc.metadata.get("author")).lower() == "graphbrain team"


def test_pdf_one_section_per_page_with_page_numbers() -> None:
    doc = parse_file(SEEDS / "api-guide.pdf")
    assert doc.format == "pdf" and doc.mime == "application/pdf"
    assert doc.title == "graphbrain API guide"
    assert doc.metadata["pages"] == 3
    assert [s.page for s in doc.sections] == [1, 2, 3]
    assert [s.title for s in doc.sections] == ["graphbrain API guide", "commit_turn", "compose_context"]
    assert "idempotent" in doc.sections[1].text
    assert {c.page for c in doc.chunks} == {1, 2, 3}
    small = parse_file(SEEDS / "api-guide.pdf", max_chars=150, overlap=30)
    _invariants(small)
    for s, c in small.iter_chunks():
        assert c.page == s.page
    # Subheadings ("Overview", "Request") do not run into the abstract.
    assert doc.sections[1].l0.startswith("commit_turn: commit_turn takes a session_id")


def test_python_sections_by_top_level_definition() -> None:
    doc = parse_file(SEEDS / "retriever.py")
    assert doc.format == "code" and doc.metadata["code_language"] == "python"
    titles = [s.title for s in doc.sections]
    assert titles == [
        "retriever (module header)",
        "class Hit",
        "def rrf_fuse",
        "class HybridRetriever",
        "def diversify",
        "retriever (module footer)",
    ]
    hit = doc.sections[1]
    assert hit.text.startswith("@dataclass(frozen=True)"), "decorators belong to their definition"
    diversify = doc.sections[4]
    assert diversify.text.startswith("# Diversity is applied after fusion"), "so does the comment above"
    assert doc.sections[2].l0 == "def rrf_fuse: Fuse ranked lists with reciprocal rank fusion."
    assert doc.sections[-1].text.startswith('if __name__ == "__main__":')


GO_SOURCE = """package retrieve

import "sort"

// Hit is one retrieved chunk.
type Hit struct {
\tID    string
\tScore float64
}

// Fuse merges ranked lists with RRF.
func Fuse(lists ...[]Hit) []Hit {
\treturn nil
}

func (h Hit) String() string {
\treturn h.ID
}
"""

TS_SOURCE = """import { Hit } from "./hit";

/** Fuse ranked lists with reciprocal rank fusion. */
export function rrfFuse(lists: Hit[][], k = 60): Map<string, number> {
  return new Map();
}

export const diversify = (hits: Hit[], perSection = 1): Hit[] => {
  return hits;
};

export class HybridRetriever {
  retrieve(query: string): Hit[] { return []; }
}
"""


def test_other_languages_by_definition_patterns() -> None:
    go = parse_text(GO_SOURCE, fmt="go", title="fuse.go")
    assert [s.title for s in go.sections] == ["fuse (module header)", "type Hit", "func Fuse", "func String"]
    assert go.sections[1].text.startswith("// Hit is one retrieved chunk.")
    assert go.sections[2].l0 == "func Fuse: Fuse merges ranked lists with RRF."
    ts = parse_text(TS_SOURCE, fmt="typescript", title="fuse.ts")
    assert [s.title for s in ts.sections][1:] == [
        "function rrfFuse",
        "const diversify",
        "class HybridRetriever",
    ]
    _invariants(go)
    _invariants(ts)


def test_code_without_definitions_uses_line_windows(tmp_path: Path) -> None:
    path = tmp_path / "config.js"
    path.write_text("\n".join(f"settings.value{i} = {i};" for i in range(150)) + "\n")
    doc = parse_file(path)
    assert [s.title for s in doc.sections] == [
        "config (lines 1-60)",
        "config (lines 61-120)",
        "config (lines 121-150)",
    ]
    _invariants(doc)


def test_python_with_syntax_errors_still_parses(tmp_path: Path) -> None:
    path = tmp_path / "legacy.py"
    path.write_text("def old(x):\n    print 'python 2'\n\nclass Thing:\n    pass\n")
    doc = parse_file(path)
    assert [s.title for s in doc.sections] == ["def old", "class Thing"]


def test_markdown_edge_cases() -> None:
    text = """Intro before any heading.

Setext title
============

> # quoted heading is content

```python
# comment, not a heading
```

    # indented code, not a heading

Sub
---

Text.
"""
    doc = parse_text(text, title="Edge cases")
    assert [s.title for s in doc.sections] == ["Edge cases", "Setext title", "Sub"]
    assert [s.level for s in doc.sections] == [0, 1, 2]
    assert doc.sections[2].heading_path == ["Setext title", "Sub"]
    assert "# comment, not a heading" in doc.sections[1].text
    _invariants(doc)


def test_plain_text_without_headings() -> None:
    short = parse_text("Just a short note about Neo4j.\n\nSecond paragraph.", fmt="text", title="note")
    assert len(short.sections) == 1 and short.sections[0].title == "note"
    long_text = "\n\n".join(f"Paragraph {i} talks about the vector index and recall. " * 6 for i in range(20))
    doc = parse_text(long_text, fmt="text", title="essay")
    assert len(doc.sections) > 2
    assert all(s.title.startswith("essay (part ") for s in doc.sections)
    assert all(len(s.text) < 2 * 2000 for s in doc.sections)
    _invariants(doc)


def test_parse_text_defaults_and_snapshots() -> None:
    doc = parse_text("# Decisions\n\nUse Neo4j 5.26.")
    assert doc.source_type == "manual"
    assert re.fullmatch(r"graphbrain://manual/[0-9a-f]{16}", doc.source_uri)
    snap = parse_text(
        "## decision:graphbrain:vector-index\n\nCosine similarity, not euclidean.",
        title="graphbrain decisions",
        source_type="memory_snapshot",
        source_uri="graphbrain://memory-snapshot/graphbrain-decisions",
        metadata={"memory_item_ids": ["m1"]},
    )
    assert snap.source_type == "memory_snapshot" and snap.title == "graphbrain decisions"
    assert snap.metadata["memory_item_ids"] == ["m1"]
    with pytest.raises(InputError, match="unknown text format"):
        parse_text("x", fmt="docx")
    with pytest.raises(InputError, match="no text"):
        parse_text("   \n  ")


def test_content_hash_is_of_the_normalised_text() -> None:
    a = parse_text("# T\r\n\r\nSame text.  \r\n", fmt="markdown")
    b = parse_text("\ufeff# T\n\nSame text.\n\n\n", fmt="markdown")
    c = parse_text("# T\n\nOther text.\n", fmt="markdown")
    assert a.content_hash == b.content_hash != c.content_hash
    assert [x.content_hash for x in a.chunks] == [x.content_hash for x in b.chunks]
    # NFC: a decomposed accent hashes like the composed one.
    assert parse_text("café").content_hash == parse_text("cafe\u0301").content_hash


def test_parse_bytes_by_content_type_and_url() -> None:
    html = (SEEDS / "release-notes.html").read_bytes()
    doc = parse_bytes(html, "text/html; charset=utf-8", "https://docs.example.invalid/releases/0.3.0/")
    assert doc.source_type == "url" and doc.format == "html"
    assert doc.metadata["content_type"] == "text/html; charset=utf-8"
    md = parse_bytes(b"# Notes\n\nHello.", "text/plain", "https://example.invalid/raw/notes.md")
    assert md.format == "markdown" and md.title == "Notes"
    code = parse_bytes(b"def f():\n    return 1\n", "text/plain", "https://example.invalid/raw/f.py")
    assert code.format == "code" and code.sections[0].title == "def f"
    gb = parse_bytes("# 标题\n\n中文内容。".encode("gb18030"), "text/markdown", "https://example.invalid/a")
    assert gb.title == "标题"
    declared = parse_bytes(
        "# Título\n\nTexto.".encode("latin-1"), "text/markdown; charset=ISO-8859-1", "https://x.invalid/"
    )
    assert declared.title == "Título"
    pdf = parse_bytes((SEEDS / "api-guide.pdf").read_bytes(), "application/pdf", "https://x.invalid/guide")
    assert [s.page for s in pdf.sections] == [1, 2, 3]
    with pytest.raises(InputError, match="unsupported content type 'image/png'"):
        parse_bytes(b"\x89PNG", "image/png", "https://x.invalid/logo.png")


def test_unknown_or_unreadable_formats_name_the_file(tmp_path: Path) -> None:
    docx = tmp_path / "report.docx"
    docx.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    with pytest.raises(InputError, match=r"report\.docx.*unsupported format '\.docx'"):
        parse_file(docx)
    blob = tmp_path / "data.xyz"
    blob.write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(InputError, match=r"data\.xyz.*binary content"):
        parse_file(blob)
    fake = tmp_path / "fake.pdf"
    fake.write_text("not really a pdf")
    with pytest.raises(InputError, match=r"fake\.pdf.*not a PDF"):
        parse_file(fake)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n garbage")
    with pytest.raises(InputError, match=r"broken\.pdf"):
        parse_file(broken)
    with pytest.raises(InputError, match=r"missing\.md: no such file"):
        parse_file(tmp_path / "missing.md")
    with pytest.raises(InputError, match="is a directory"):
        parse_file(tmp_path)
    empty = tmp_path / "empty.md"
    empty.write_text("  \n")
    with pytest.raises(InputError, match=r"empty\.md.*no text"):
        parse_file(empty)
    big = tmp_path / "big.txt"
    big.write_text("x" * 2000)
    with pytest.raises(InputError, match=r"big\.txt.*over the 1000-byte limit"):
        parse_file(big, max_bytes=1000)


def test_unknown_text_extension_is_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "NOTES"
    path.write_text("Plain notes without an extension.\n")
    assert parse_file(path).format == "text"
    assert detect_format("page.unknown", b"<!DOCTYPE html><html>") == ("html", None)
    assert detect_format("x.bin", b"%PDF-1.7") == ("pdf", None)


def test_language_detection_and_keywords() -> None:
    assert detect_language("The vector index is used for the semantic recall of chunks.") == "en"
    assert detect_language("向量索引负责语义召回，全文索引负责关键词召回。") == "zh"
    assert detect_language("ベクトル索引とはなにか") == "ja"
    assert detect_language("x = f(y)") == "other"  # no word to tell by: a section of it takes the document's
    assert detect_language("") == "other"
    kws = extract_keywords("The vector index and the vector index again; RRF fuses vector results.", k=3)
    assert kws[0] == "vector index"


# ------------------------------------------------------------------------------------------- walking


def _tree(root: Path) -> None:
    for rel in [
        "a.md",
        "b.txt",
        "sub/c.md",
        "sub/deep/d.py",
        ".hidden.md",
        ".git/config",
        "node_modules/pkg/index.js",
        "__pycache__/x.pyc",
        ".venv/lib/site.py",
        "sub/.secret/e.md",
    ]:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")


def test_iter_files_prunes_and_sorts(tmp_path: Path) -> None:
    _tree(tmp_path)
    rel = [p.relative_to(tmp_path).as_posix() for p in iter_files(tmp_path)]
    assert rel == ["a.md", "b.txt", "sub/c.md", "sub/deep/d.py"]
    assert [p.name for p in iter_files(tmp_path, "*.md")] == ["a.md", "c.md"]
    assert [p.name for p in iter_files(tmp_path, "sub/**/*.py")] == ["d.py"]
    assert [p.name for p in iter_files(tmp_path, "*.md", exclude=["sub/**"])] == ["a.md"]
    hidden = [p.relative_to(tmp_path).as_posix() for p in iter_files(tmp_path, "*.md", include_hidden=True)]
    assert hidden == [".hidden.md", "a.md", "sub/.secret/e.md", "sub/c.md"]
    assert list(iter_files(tmp_path / "a.md")) == [tmp_path / "a.md"]
    with pytest.raises(InputError, match="no such directory"):
        list(iter_files(tmp_path / "nope"))


def test_glob_matching() -> None:
    assert matches_glob("docs/a.md", "**/*.md")
    assert matches_glob("a.md", "**/*.md")
    assert matches_glob("docs/x/a.md", "docs/**")
    assert not matches_glob("other/a.md", "docs/**")
    assert matches_glob("docs/a1.md", "docs/a?.md")
    assert matches_glob("docs/b.md", "docs/[ab].md")
    assert not matches_glob("docs/c.md", "docs/[!c].md")
    assert not matches_glob("docs/sub/a.md", "docs/*.md")


def test_seed_directory_walk_is_deterministic() -> None:
    first = [p.name for p in iter_files(SEEDS)]
    assert first == [p.name for p in iter_files(SEEDS)] == sorted(first)
    assert set(SEED_FILES) <= set(first)
