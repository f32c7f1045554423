"""Parse a file, a fetched URL body or raw text into a ``ParsedDocument`` (sections, layers, chunks).

Formats and how each is split into sections:

- Markdown: by ATX and Setext headings (CommonMark, via markdown-it-py, so a ``#`` line inside a code
  fence, an indented code block or a block quote is never a heading); YAML front matter goes to
  ``metadata`` and its ``title`` wins.
- Plain text: by heading-like lines (underlined, numbered "2.1 Title", ALL CAPS) when there are some,
  else one section, or paragraph groups of about 2,000 characters for a long text.
- HTML: trafilatura extracts the main content (dropping navigation, footers and other boilerplate) as
  Markdown with its headings, which then goes through the Markdown sectioner.
- PDF: pypdf, one section per page; page numbers (from 1) are kept on sections and chunks.
- Source code: ``.py`` by top-level ``def`` / ``class`` (``ast``); JavaScript, TypeScript, Go, Rust,
  Java, C, C++ and Ruby by top-level definition patterns; fixed windows of about 60 lines when none
  are found, or inside a definition longer than two windows.

Everything is pure: no database and no network (``fetch.fetch_url`` does the network part).

One module per format family (``markdown``, ``plaintext``, ``html``, ``pdf``, ``code``) makes a ``Draft``;
``assemble`` turns it into sections, layers and chunks; ``documents`` holds the entry points below.
"""

from graphbrain.resources.parsers.assemble import section_slug
from graphbrain.resources.parsers.documents import MAX_FILE_BYTES, parse_bytes, parse_file, parse_text
from graphbrain.resources.parsers.formats import CODE_EXTENSIONS, detect_format

__all__ = [
    "CODE_EXTENSIONS",
    "MAX_FILE_BYTES",
    "detect_format",
    "parse_bytes",
    "parse_file",
    "parse_text",
    "section_slug",
]
