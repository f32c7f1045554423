"""The wire contracts: CONTRACTS.md and seed-retrieval_plan.md as pydantic v2 models, one module a message.

Field names are the wire names. Input models validate at the edge (sizes, enums, time ranges) and
name the field and the reason. Each module's ``__all__`` is re-exported here: import from ``graphbrain.contracts``.
"""

from __future__ import annotations

from graphbrain.contracts.base import *  # noqa: F403
from graphbrain.contracts.context import *  # noqa: F403
from graphbrain.contracts.evidence import *  # noqa: F403
from graphbrain.contracts.memory import *  # noqa: F403
from graphbrain.contracts.plan import *  # noqa: F403
from graphbrain.contracts.turn import *  # noqa: F403


def model_schema_names() -> list[str]:
    return ["TurnEvents", "CommitResult", "RetrievalPlan", "EvidencePack", "ContextPackage"]
