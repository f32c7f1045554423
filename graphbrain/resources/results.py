"""What ``Ingestor.ingest`` and ``Ingestor.remove`` return: per-document outcomes plus totals.

A directory ingest yields one ``DocumentResult`` per file, in the walk's (sorted) order; a file, URL,
manual text or memory snapshot yields exactly one. ``sections`` / ``chunks`` of a document are its
counts in the library after the call (so an unchanged document reports what it already had), while
``IngestResult.chunks_written`` counts only what this call wrote.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

DocumentStatus = Literal["created", "updated", "unchanged", "failed"]

__all__ = ["DocumentResult", "DocumentStatus", "IngestResult", "RemoveResult"]


class DocumentResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str  # what was given: a path, a URL, "manual:<title>", "memory_snapshot:<selection>"
    status: DocumentStatus
    document_id: str | None = None  # None only when the source failed before it had an identity
    source_uri: str | None = None
    title: str | None = None
    format: str | None = None
    language: str | None = None
    sections: int = 0
    chunks: int = 0
    chunks_written: int = 0
    entities: int = 0  # distinct Entity nodes the document's chunks now mention
    # "content": sections and chunks were replaced; "fields": only title / tags / topics / metadata
    # changed, so nothing was re-chunked or re-embedded.
    changed: Literal["content", "fields"] | None = None
    error: str | None = None
    took_ms: float = 0.0
    parse_ms: float = 0.0
    embed_ms: float = 0.0
    entities_ms: float = 0.0  # entity detection in the chunks (NER, jieba)
    write_ms: float = 0.0
    embedded: int = 0  # texts sent to the embedding model (new chunks and new entity names)
    reused_embeddings: int = 0  # chunks of a changed document whose vector was kept (same text)


class IngestResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    namespace: str
    source: str
    kind: Literal["file", "directory", "url", "manual", "memory_snapshot"]
    documents: list[DocumentResult] = Field(default_factory=list)
    took_ms: float = 0.0
    embed_ms: float = 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def document_id(self) -> str | None:
        """The id of the single document (or of the first one that did not fail)."""
        return next((d.document_id for d in self.documents if d.document_id and d.status != "failed"), None)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def document_ids(self) -> list[str]:
        return [d.document_id for d in self.documents if d.document_id and d.status != "failed"]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def sections(self) -> int:
        return sum(d.sections for d in self.documents if d.status != "failed")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def chunks(self) -> int:
        return sum(d.chunks for d in self.documents if d.status != "failed")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def chunks_written(self) -> int:
        return sum(d.chunks_written for d in self.documents)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def counts(self) -> dict[str, int]:
        """Documents per status: created / updated / unchanged / failed."""
        out = {"created": 0, "updated": 0, "unchanged": 0, "failed": 0}
        for d in self.documents:
            out[d.status] += 1
        return out

    @property
    def failed(self) -> list[DocumentResult]:
        return [d for d in self.documents if d.status == "failed"]


class RemoveResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    namespace: str
    document_id: str | None  # None when nothing matched
    source_uri: str | None = None
    removed: bool = False
    sections: int = 0
    chunks: int = 0
    labels_deleted: int = 0  # tags and topics no other document used
    entities_deleted: int = 0  # entities only this document had created and nothing else mentions
