"""The HTTP service's routes, one router per area, in the order the OpenAPI document lists them."""

from __future__ import annotations

from fastapi import APIRouter

from graphbrain.interfaces.http.routes import explore, memory, probes, resources, turns

ROUTERS: tuple[APIRouter, ...] = (
    probes.router,
    turns.turns,
    turns.retrieval,
    resources.router,
    memory.router,
    explore.graph,
    explore.traces,
)

__all__ = ["ROUTERS"]
