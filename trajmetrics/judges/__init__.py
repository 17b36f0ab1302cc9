"""LLM judges for the pairs the rules are UNSURE about (METRICS.md section 6).

Public API: ``make_judge`` (what the CLI uses), ``OpenAIJudge``, ``JudgeCache``. Nothing here imports
``openai`` at import time; the judge imports it when constructed.
"""

from __future__ import annotations

import os
from typing import Literal, get_args

from ..errors import ConfigError
from ..matching.decision import Judge
from ._reply import JudgeReply, parse_reply
from ._templates import PROMPT_VERSIONS, available_versions, load_template
from .cache import CACHE_ENV, JudgeCache, cache_key, default_cache_dir
from .openai_judge import DEFAULT_MODEL, OpenAIJudge

JudgeKind = Literal["none", "openai"]
JUDGE_KINDS: tuple[str, ...] = get_args(JudgeKind)


def make_judge(
    kind: str = "none",
    *,
    model: str = DEFAULT_MODEL,
    base_url: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    concurrency: int = 8,
    max_calls: int | None = None,
    samples: int = 1,
    timeout: float = 30.0,
) -> Judge | None:
    """The judge for ``--judge KIND``: None for ``none`` (UNSURE pairs go to ``unsure_policy``)."""
    if kind == "none":
        return None
    if kind == "openai":
        return OpenAIJudge(
            model=model,
            base_url=base_url,
            cache_dir=cache_dir,
            concurrency=concurrency,
            max_calls=max_calls,
            samples=samples,
            timeout=timeout,
        )
    raise ConfigError(f"--judge: expected one of {', '.join(JUDGE_KINDS)}, found {kind!r}")


__all__ = [
    "CACHE_ENV",
    "DEFAULT_MODEL",
    "JUDGE_KINDS",
    "PROMPT_VERSIONS",
    "JudgeCache",
    "JudgeKind",
    "JudgeReply",
    "OpenAIJudge",
    "available_versions",
    "cache_key",
    "default_cache_dir",
    "load_template",
    "make_judge",
    "parse_reply",
]
