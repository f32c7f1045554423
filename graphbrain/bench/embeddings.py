"""The bilingual embedding probe: does each configured model find a memory across languages?

    report = run_embedding_probe(load_config(None))
    print(format_embedding_probe(report))

Ten topics, each written once in English and once in Chinese, with a question in each language that
shares few words with the memory (``PROBE``). For each model of ``embedding`` (the main one and
``embedding.english``) it ranks the memories by cosine and counts how often the question's own topic
comes first (top-1 accuracy):

- ``en→en``, ``zh→zh``: English questions over the English memories, Chinese over the Chinese ones;
- ``zh→en``, ``en→zh``: a question over the memories written in the other language;
- ``mixed``: one store holding both languages, each topic's memory in one of them (alternating), asked
  in both languages — an agent's memory as bilingual users fill it.

The main model must stay strong on every row (Chinese and cross-language recall are its job); the English
model only on ``en→en``. The README's Embeddings table comes from this command (``graphbrain bench
embeddings``) beside LoCoMo's dense figures. No database is used.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphbrain.bench.report import table
from graphbrain.config import BrainConfig, EmbeddingConfig

__all__ = ["PROBE", "TASKS", "format_embedding_probe", "run_embedding_probe"]


@dataclass(frozen=True)
class Topic:
    en: str
    zh: str
    ask_en: str
    ask_zh: str


PROBE: tuple[Topic, ...] = (
    Topic(
        "We moved the nightly database backups to the object store in Frankfurt.",
        "我们把每晚的数据库备份迁到了法兰克福的对象存储。",
        "Where are the DB dumps kept these days?",
        "现在数据库的备份文件放在哪里？",
    ),
    Topic(
        "My daughter is allergic to peanuts, so we never bring nut snacks to parties.",
        "我女儿对花生过敏，所以聚会从不带坚果零食。",
        "What food can her kid not eat?",
        "她的孩子不能吃什么东西？",
    ),
    Topic(
        "I'm flying to Tokyo next Tuesday for the hardware conference.",
        "我下周二飞东京参加硬件大会。",
        "When is the trip to Japan?",
        "去日本的行程定在什么时候？",
    ),
    Topic(
        "The team agreed to use tabs for indentation in every Go file.",
        "团队约定所有 Go 文件都用制表符缩进。",
        "What formatting rule did the team settle on?",
        "团队最后定了什么代码格式规矩？",
    ),
    Topic(
        "On weekends she paints watercolour landscapes by the lake.",
        "她周末在湖边画水彩风景画。",
        "What does she do for fun on Saturdays?",
        "她休息日喜欢做什么消遣？",
    ),
    Topic(
        "The checkout service crashed because the payment gateway certificate expired.",
        "结账服务崩溃是因为支付网关的证书过期了。",
        "Why did the outage at checkout happen?",
        "下单页面那次故障是什么原因？",
    ),
    Topic(
        "He started running five kilometres every morning to lower his blood pressure.",
        "他开始每天早上跑五公里来降血压。",
        "What exercise did he take up for his health?",
        "他为了身体开始了什么锻炼？",
    ),
    Topic(
        "We are hiring two senior frontend engineers who know React.",
        "我们在招两名熟悉 React 的高级前端工程师。",
        "Which positions are open on the team?",
        "团队现在有哪些岗位空缺？",
    ),
    Topic(
        "Our cat Mochi hides under the bed whenever there is thunder.",
        "我们的猫麻薯一打雷就躲到床底下。",
        "How does the pet react to storms?",
        "宠物遇到暴风雨会怎么样？",
    ),
    Topic(
        "The marketing budget for the third quarter was cut by twenty percent.",
        "第三季度的市场预算削减了百分之二十。",
        "How much was the Q3 advertising spend reduced?",
        "第三季度的推广费用少了多少？",
    ),
)

TASKS = ("en→en", "zh→zh", "zh→en", "en→zh", "mixed")


def _top1(questions: np.ndarray, memories: np.ndarray, want: Sequence[int], owner: Sequence[int]) -> float:
    """Share of questions whose best memory (by cosine; vectors are unit length) is of their own topic."""
    best = np.argmax(questions @ memories.T, axis=1)
    return float(np.mean([owner[b] == w for b, w in zip(best, want, strict=True)]))


def probe_model(cfg: EmbeddingConfig) -> dict[str, Any]:
    """One model's top-1 accuracy per task, and its speed on the probe's texts."""
    from graphbrain.embedding import get_embedder

    embedder = get_embedder(cfg)
    texts = [t for topic in PROBE for t in (topic.en, topic.zh, topic.ask_en, topic.ask_zh)]
    embedder.embed(texts[:4])  # warm-up: the first call pays the session's start
    t0 = time.perf_counter()
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    seconds = time.perf_counter() - t0
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    en, zh, ask_en, ask_zh = (vectors[i::4] for i in range(4))
    topics = list(range(len(PROBE)))
    # The mixed store: even topics remembered in English, odd ones in Chinese.
    mixed = np.stack([en[i] if i % 2 == 0 else zh[i] for i in topics])
    both = np.concatenate([ask_en, ask_zh])
    accuracy = {
        "en→en": _top1(ask_en, en, topics, topics),
        "zh→zh": _top1(ask_zh, zh, topics, topics),
        "zh→en": _top1(ask_zh, en, topics, topics),
        "en→zh": _top1(ask_en, zh, topics, topics),
        "mixed": _top1(both, mixed, topics + topics, topics),
    }
    return {"model": cfg.model, "provider": cfg.provider, "accuracy": accuracy, "texts_per_s": len(texts) / seconds}


def run_embedding_probe(config: BrainConfig) -> dict[str, Any]:
    """The probe for the main model and, when configured, the English one."""
    models = [("main", config.embedding)]
    english = config.embedding.english_model()
    if english is not None:
        models.append(("english", english))
    rows = [{"role": role, **probe_model(cfg)} for role, cfg in models]
    return {"topics": len(PROBE), "tasks": list(TASKS), "models": rows}


def format_embedding_probe(report: dict[str, Any]) -> str:
    headers = ["model", *report["tasks"], "texts/s"]
    rows = [
        [f"{m['role']}: {m['model']}", *(m["accuracy"][t] for t in report["tasks"]), round(m["texts_per_s"])]
        for m in report["models"]
    ]
    return f"bilingual probe: {report['topics']} topics, top-1 accuracy of a question over the memories\n" + table(
        headers, rows, digits=2
    )
