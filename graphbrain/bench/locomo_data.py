"""LoCoMo conversation files read into dialog turns and questions, and what a turn becomes in each system."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from os import PathLike
from pathlib import Path
from typing import Any

from graphbrain.bench.scoring import normalise_dia_ids, normalise_evidence

__all__ = [
    "Conversation",
    "DialogTurn",
    "Question",
    "baseline_text",
    "load_conversation",
    "parse_session_time",
    "safe_slug",
    "turn_events",
]

SESSION_TIME_FORMAT = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_SAFE = re.compile(r"[^A-Za-z0-9_.\-]+")


def safe_slug(text: str, fallback: str) -> str:
    """``text`` with every run of characters unsafe in a namespace or file name made one ``-``."""
    return _SAFE.sub("-", text).strip("-") or fallback


@dataclass(frozen=True)
class DialogTurn:
    dia_id: str
    session: int
    speaker: str
    content: str  # the text, plus " [image: caption]" when a photo was shared
    at: datetime


@dataclass(frozen=True)
class Question:
    index: int
    text: str
    category: int
    evidence: tuple[str, ...]
    dropped_evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    path: str
    speaker_a: str
    speaker_b: str
    turns: tuple[DialogTurn, ...]
    questions: tuple[Question, ...]
    digest: str

    @property
    def sessions(self) -> list[int]:
        return sorted({t.session for t in self.turns})

    @property
    def dia_ids(self) -> frozenset[str]:
        return frozenset(t.dia_id for t in self.turns)

    @property
    def question_time(self) -> datetime:
        """The conversation's "now" for questions: its last session's date + 1 day."""
        return max(t.at for t in self.turns) + timedelta(days=1)

    def namespace(self, prefix: str) -> str:
        return f"{prefix}-{self.sample_id}-{self.digest[:8]}"

    def session_id(self, session: int) -> str:
        return f"{self.sample_id}:session_{session}"

    @property
    def questions_session_id(self) -> str:
        return f"{self.sample_id}:questions"


def parse_session_time(value: str) -> datetime:
    """LoCoMo's ``"1:56 pm on 8 May, 2023"`` as an aware UTC datetime (the data names no zone)."""
    cleaned = " ".join(str(value).split())
    return datetime.strptime(cleaned, SESSION_TIME_FORMAT).replace(tzinfo=UTC)


def _dia_id(raw: str) -> str:
    found = normalise_dia_ids(raw)
    return found[0] if len(found) == 1 else str(raw).strip()


def load_conversation(path: str | PathLike[str]) -> Conversation:
    """Read one LoCoMo conversation file: the dialog turns (only what may enter memory) and the questions."""
    file = Path(path)
    data = json.loads(file.read_text(encoding="utf-8"))
    # locomo10.json nests the dialog under "conversation"; the per-conversation files are flat.
    dialog: Mapping[str, Any] = data.get("conversation", data)
    sample_id = safe_slug(str(data.get("sample_id") or file.stem), "conv")
    sessions = sorted(
        int(m.group(1)) for key, value in dialog.items() if (m := _SESSION_KEY.match(key)) and isinstance(value, list)
    )
    turns: list[DialogTurn] = []
    for n in sessions:
        at = parse_session_time(dialog[f"session_{n}_date_time"])
        for raw in dialog[f"session_{n}"]:
            text = str(raw.get("text") or "")
            caption = raw.get("blip_caption")
            if caption:
                text = f"{text} [image: {caption}]" if text else f"[image: {caption}]"
            turns.append(
                DialogTurn(
                    dia_id=_dia_id(str(raw["dia_id"])),
                    session=n,
                    speaker=str(raw.get("speaker") or ""),
                    content=text,
                    at=at,
                )
            )
    known = {t.dia_id for t in turns}
    questions: list[Question] = []
    for i, qa in enumerate(data.get("qa") or []):
        evidence, dropped = normalise_evidence([str(e) for e in qa.get("evidence") or []], known)
        questions.append(
            Question(
                index=i,
                text=str(qa["question"]),
                category=int(qa["category"]),
                evidence=tuple(evidence),
                dropped_evidence=tuple(dropped),
            )
        )
    blob = json.dumps(
        [[t.dia_id, t.session, t.speaker, t.content, t.at.isoformat()] for t in turns], ensure_ascii=False
    )
    return Conversation(
        sample_id=sample_id,
        path=str(file),
        speaker_a=str(dialog.get("speaker_a") or ""),
        speaker_b=str(dialog.get("speaker_b") or ""),
        turns=tuple(turns),
        questions=tuple(questions),
        digest=hashlib.sha256(blob.encode("utf-8")).hexdigest(),
    )


def baseline_text(turn: DialogTurn) -> str:
    """What the flat baselines index per turn: ``"[8 May 2023] Caroline: text [image: caption]"``."""
    return f"[{turn.at.day} {turn.at.strftime('%B %Y')}] {turn.speaker}: {turn.content}"


def turn_events(turn: DialogTurn, namespace: str) -> dict[str, Any]:
    """The TurnEvents of one LoCoMo dialog turn (see the module docstring for the mapping)."""
    return {
        "turn_id": turn.dia_id,
        "at": turn.at,
        "namespace": namespace,
        "messages": [{"message_id": turn.dia_id, "role": "user", "name": turn.speaker, "content": turn.content}],
    }
