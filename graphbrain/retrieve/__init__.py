"""Retrieval: the RetrievalPlan executor, one retriever per mode, and pure fuse/rerank/diversity/snippet steps."""

from graphbrain.retrieve.executor import Executor

__all__ = ["Executor"]
