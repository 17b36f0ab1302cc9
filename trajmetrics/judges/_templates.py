"""Versioned prompt templates (``prompts/<task>_v<N>.txt``), loaded with importlib.resources.

A template file has optional ``#`` comment lines, then a ``[system]`` section and a ``[user]`` section.
Placeholders use ``string.Template`` syntax (``$left``) so JSON braces in the text need no escaping.
The version name and a hash of the file text both enter the cache key: editing a template without
bumping its version still cannot serve answers produced by the old text.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from string import Template
from typing import Any, get_args

from ..errors import ConfigError
from ..matching.decision import JudgeTask

JUDGE_TASKS: tuple[str, ...] = get_args(JudgeTask)
#: The template each judge task uses by default.
PROMPT_VERSIONS: dict[str, str] = {"step": "step_v1", "repeat": "repeat_v1", "requirement": "requirement_v1"}

# Long thoughts would dominate the prompt (and the bill); the decision is about the action.
MAX_THOUGHT_CHARS = 2000
MAX_FIELD_CHARS = 4000
_MISSING = "(not recorded)"


@dataclass(frozen=True)
class PromptTemplate:
    """One loaded template."""

    version: str
    system: Template
    user: Template
    sha256: str
    """Hash of the file text; part of the cache key."""

    def render(self, inputs: dict[str, Any]) -> list[dict[str, str]]:
        """Chat messages for one question, from its normalised inputs (``JudgeQuestion.key_payload()``)."""
        values = {
            "intent": _cut(inputs.get("intent") or "", MAX_FIELD_CHARS) or _MISSING,
            "left": _cut(inputs.get("left") or "", MAX_FIELD_CHARS),
            "right": _cut(inputs.get("right") or "", MAX_FIELD_CHARS),
            "thought": _cut(inputs.get("thought") or "", MAX_THOUGHT_CHARS) or _MISSING,
        }
        return [
            {"role": "system", "content": self.system.substitute(values)},
            {"role": "user", "content": self.user.substitute(values)},
        ]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


_SECTION = re.compile(r"^\[(system|user)\]\s*$", re.MULTILINE)


def available_versions() -> list[str]:
    """Every template shipped in ``prompts/`` (e.g. ``['repeat_v1', 'requirement_v1', 'step_v1']``)."""
    folder = resources.files("trajmetrics.judges") / "prompts"
    return sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt"))


@functools.lru_cache(maxsize=None)
def load_template(version: str) -> PromptTemplate:
    """Load ``prompts/<version>.txt``; an unknown version is a ConfigError listing the shipped ones."""
    path = resources.files("trajmetrics.judges") / "prompts" / f"{version}.txt"
    if not re.fullmatch(r"[a-z]+_v\d+", version) or not path.is_file():
        raise ConfigError(
            f"unknown prompt template {version!r}: expected one of {', '.join(available_versions())}"
        )
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    while lines and lines[0].startswith("#"):  # only the leading comment block; '#' later is prompt text
        lines.pop(0)
    body = "\n".join(lines)
    parts = _SECTION.split(body)
    # split gives ['', 'system', text, 'user', text]
    sections = {parts[i]: parts[i + 1].strip("\n") for i in range(1, len(parts) - 1, 2)}
    if set(sections) != {"system", "user"}:
        raise ConfigError(f"prompt template {version}: expected a [system] and a [user] section")
    return PromptTemplate(
        version=version,
        system=Template(sections["system"]),
        user=Template(sections["user"]),
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )
