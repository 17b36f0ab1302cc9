"""Parsing and validating the judge's reply: ``{"verdict": "MATCH"|"NO_MATCH", "reason": "..."}``."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

MAX_REASON_CHARS = 500
_FENCE = re.compile(r"^```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```$", re.DOTALL)


class JudgeReply(BaseModel):
    """The judge's JSON reply. Lenient about case and spacing, strict about the set of verdicts."""

    model_config = ConfigDict(extra="ignore")

    verdict: Literal["MATCH", "NO_MATCH"]
    """MATCH or NO_MATCH (``match``, `` No match ``, ``no-match`` are accepted; ``yes`` is not)."""
    reason: str = ""
    """One short sentence; optional because the verdict alone decides (models sometimes drop it)."""

    @field_validator("verdict", mode="before")
    @classmethod
    def _verdict(cls, v: Any) -> Any:
        return _norm_verdict(v)

    @field_validator("reason", mode="before")
    @classmethod
    def _reason(cls, v: Any) -> Any:
        if v is None:
            return ""
        if isinstance(v, str):
            text = " ".join(v.split())
            return text if len(text) <= MAX_REASON_CHARS else text[: MAX_REASON_CHARS - 3] + "..."
        return v


def _norm_verdict(v: Any) -> Any:
    if isinstance(v, str):
        return re.sub(r"[\s\-]+", "_", v.strip()).upper()
    return v


class ReplyError(ValueError):
    """The reply is not a valid verdict (never cached)."""


def parse_reply(content: str | None) -> JudgeReply:
    """Validate a reply's text. Code-fenced JSON is accepted; keys are matched case-insensitively.

    >>> parse_reply('```json\\n{"Verdict": " match ", "reason": "same link"}\\n```')
    JudgeReply(verdict='MATCH', reason='same link')
    >>> try:
    ...     parse_reply('{"verdict": "yes"}')
    ... except ReplyError as exc:
    ...     print(exc)
    reply verdict must be MATCH or NO_MATCH, found 'YES'
    """
    if content is None or not content.strip():
        raise ReplyError("empty reply")
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        data = json.loads(text)
    except ValueError:
        raise ReplyError(f"reply is not JSON: {_clip(content)}") from None
    if not isinstance(data, dict):
        raise ReplyError(f"reply is not a JSON object: {_clip(content)}")
    data = {str(k).strip().lower(): v for k, v in data.items()}
    if "verdict" not in data:
        raise ReplyError(f"reply has no 'verdict' field: {_clip(content)}")
    try:
        return JudgeReply.model_validate(data)
    except ValidationError as exc:
        if exc.errors()[0]["loc"] == ("verdict",):
            found = _norm_verdict(data["verdict"])
            raise ReplyError(f"reply verdict must be MATCH or NO_MATCH, found {found!r}") from None
        raise ReplyError(f"reply 'reason' must be text: {_clip(content)}") from None


def _clip(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
