"""Online-Mind2Web ``result.json`` task folders: free-text ``action_history`` with ``thoughts`` beside it and
``final_result_response``.

A path may be a ``result.json``, one task folder, or a folder of task folders. Actions are parsed from the
free text (see :mod:`trajmetrics.actions.freetext`); ``thoughts[i]`` goes with ``action_history[i]``. The final
answer is ``final_result_response`` and is not added as a step, so step counts stay those of the run.
There is no planned action in this format (element accuracy is not applicable).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..actions.freetext import parse_freetext_action
from ..errors import InputError
from ..model import AgentStep, AgentTrajectory, ReadProblem
from ._common import ReadContext, get_field, load_json, natural_key, read_each

NAME = "mind2web"
_FILE = "result.json"


def looks_like_record(data: Any) -> bool:
    """A parsed JSON value in this format."""
    return isinstance(data, dict) and "action_history" in data


def looks_like(path: Path) -> bool:
    """Detection: a result.json with action_history, or a folder holding them (one level down at most)."""
    if path.is_dir():
        return bool(files(path))
    if path.name != _FILE and path.suffix.lower() != ".json":
        return False
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    return b'"action_history"' in head


def files(path: Path) -> list[Path]:
    """The result.json files of a path."""
    if path.is_file():
        return [path]
    if (path / _FILE).is_file():
        return [path / _FILE]
    subdirs = sorted((p for p in path.iterdir() if p.is_dir()), key=lambda p: natural_key(p.name))
    return [p / _FILE for p in subdirs if (p / _FILE).is_file()]


def read_file(path: Path, ctx: ReadContext) -> AgentTrajectory:
    """Read one result.json; raises InputError on bad data."""
    label = str(path)
    data = load_json(path)
    history = get_field(data, "action_history", list, file=label, where=None)
    thoughts = get_field(data, "thoughts", (list, type(None)), file=label, where=None, required=False) or []
    task_id = get_field(data, "task_id", (str, int), file=label, where=None, required=False) or path.parent.name
    intent = None
    for key in ("task", "confirmed_task", "intent", "instruction"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            intent = value.strip()
            break
    answer = get_field(data, "final_result_response", (str, type(None)), file=label, where=None, required=False)
    steps: list[AgentStep] = []
    for i, entry in enumerate(history):
        if not isinstance(entry, str):
            raise InputError(label, None, f"action_history[{i}]", "a string", type(entry).__name__)
        thought = thoughts[i] if i < len(thoughts) else None
        thought = thought.strip() if isinstance(thought, str) and thought.strip() else None
        steps.append(AgentStep(action=parse_freetext_action(entry), thought=thought))
    meta: dict[str, Any] = {}
    for key in ("result_status", "status", "score"):
        if isinstance(data.get(key), (str, int, float, bool)):
            meta[key] = data[key]
    return AgentTrajectory(
        task_id=task_id,
        steps=steps,
        intent=intent,
        final_answer=answer.strip() if isinstance(answer, str) and answer.strip() else None,
        source=label,
        format=NAME,
        meta=meta,
    )


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every task under ``path``, one at a time."""
    yield from read_each(path, files(path), "result.json files with action_history",
                         lambda p: read_file(p, ctx), lambda p: p.parent.name)
