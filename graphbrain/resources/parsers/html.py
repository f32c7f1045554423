"""HTML into a draft: trafilatura's main content as Markdown, then the Markdown sectioner."""

from __future__ import annotations

import re

from graphbrain.errors import InputError
from graphbrain.resources.parsers.drafts import Draft
from graphbrain.resources.parsers.formats import MIME
from graphbrain.resources.parsers.markdown import markdown_draft
from graphbrain.resources.parsers.plaintext import text_draft

__all__ = ["html_draft"]

_MD_ESCAPE = re.compile(r"\\([_*\[\]()!.+\-|>~`])")  # not '#': unescaping it could make a heading


def html_draft(html: str, *, url: str | None, fallback_title: str) -> Draft:
    import trafilatura

    extracted = trafilatura.extract(
        html,
        url=url,
        output_format="markdown",
        include_formatting=True,  # keeps headings, which become section boundaries
        include_tables=True,
        include_links=False,
        include_images=False,
        include_comments=False,
    )
    meta = trafilatura.extract_metadata(html, default_url=url)
    declared = _html_lang(html)
    if extracted and extracted.strip():
        draft = markdown_draft(_MD_ESCAPE.sub(r"\1", extracted), fallback_title=fallback_title)
    else:
        # Too little text for the main-content heuristics (a stub page): take all visible text.
        plain = trafilatura.html2txt(html)
        if not plain or not plain.strip():
            raise InputError("no readable text in the HTML page")
        draft = text_draft(plain, fallback_title=fallback_title)
    draft.fmt, draft.mime = "html", MIME["html"]
    if meta is not None:
        if meta.title:
            draft.title = meta.title.strip()
        for key in ("author", "date", "sitename", "description", "hostname"):
            value = getattr(meta, key, None)
            if value:
                draft.metadata[key] = value
    draft.language = declared or draft.language
    return draft


def _html_lang(html: str) -> str | None:
    m = re.search(r"<html[^>]*\blang\s*=\s*[\"']?([A-Za-z]{2,3})", html[:4096], re.IGNORECASE)
    return m.group(1).lower() if m else None
