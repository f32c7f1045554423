"""The resource library's pure side: parse, section, layer and chunk documents (no database here).

    parse_file / parse_text / parse_bytes  ->  ParsedDocument
        .sections: ParsedSection (title, heading_path, page, offsets, l0 / l1 / l2, keywords)
            .chunks: Chunk (chunk_index, offsets, page, section_title, content_hash)

``fetch_url`` gets a URL's body for ``parse_bytes``; ``iter_files`` lists a directory for ingest.
Offsets always index ``ParsedDocument.text``: ``doc.text[c.offset_start:c.offset_end] == c.text``.
"""

from graphbrain.resources.chunking import chunk_sections, split_spans
from graphbrain.resources.fetch import Fetched, fetch_url
from graphbrain.resources.layers import Layers, compute_layers, extract_keywords
from graphbrain.resources.model import Chunk, DocFormat, ParsedDocument, ParsedSection, normalize_text
from graphbrain.resources.parsers import detect_format, parse_bytes, parse_file, parse_text
from graphbrain.resources.walk import iter_files

__all__ = [
    "Chunk",
    "DocFormat",
    "Fetched",
    "Layers",
    "ParsedDocument",
    "ParsedSection",
    "chunk_sections",
    "compute_layers",
    "detect_format",
    "extract_keywords",
    "fetch_url",
    "iter_files",
    "normalize_text",
    "parse_bytes",
    "parse_file",
    "parse_text",
    "split_spans",
]
