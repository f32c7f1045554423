"""PDF into a draft: pypdf, one section per page, page numbers (from 1) kept."""

from __future__ import annotations

import io
from typing import Any

from graphbrain.errors import InputError
from graphbrain.resources.model import normalize_text
from graphbrain.resources.parsers.drafts import Draft, Span
from graphbrain.resources.parsers.formats import MIME

__all__ = ["pdf_draft"]


def pdf_draft(data: bytes, *, fallback_title: str) -> Draft:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputError("the PDF is encrypted with a password")
        pages = [normalize_text(page.extract_text() or "") for page in reader.pages]
        info = reader.metadata
    except InputError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as e:
        raise InputError(f"not a readable PDF ({e})") from e
    parts: list[str] = []
    spans: list[Span] = []
    pos = 0
    for number, page_text in enumerate(pages, start=1):
        if not page_text:
            continue  # an image-only page: nothing to index
        if parts:
            pos += 2  # the "\n\n" between pages
        first = page_text.split("\n", 1)[0].strip()
        heading = 3 <= len(first) <= 80 and not first.endswith((".", ",", ";", ":"))
        title = first if heading else f"Page {number}"
        spans.append(Span(pos, pos + len(page_text), title, [title], 1 if heading else 0, page=number))
        parts.append(page_text)
        pos += len(page_text)
    if not parts:
        raise InputError(f"the PDF has {len(pages)} page(s) and no extractable text (scanned images?)")
    metadata: dict[str, Any] = {"pages": len(pages)}
    doc_title: str | None = None
    if info is not None:
        doc_title = (info.title or "").strip() or None
        for key, value in (("author", info.author), ("subject", info.subject)):
            if value:
                metadata[key] = str(value)
    if doc_title is None and spans[0].level:
        doc_title = spans[0].title
    text = "\n\n".join(parts)
    return Draft("pdf", MIME["pdf"], text, spans, doc_title or fallback_title, metadata=metadata)
