"""microsoft/fara webeval trajectories: ``web_surfer.log`` (JSON lines) + ``<task>_final_answer.json``.

A path may be a ``web_surfer.log``, one trajectory folder, or a folder of them (webeval's ``traj/``).
Two event styles occur: the README's ``{"message": "Thought #N: ...\\nAction #N: executing tool 'left_click'
with arguments {...}"}`` and structured events ``{"action": ..., "arguments": {..., "thoughts": ...}}``.
Tool arguments are computer-use actions (coordinates only, see :mod:`trajmetrics.actions.computer`).

The final answer is the answer file's ``final_answer`` (``<no_answer>`` = none). Without an answer file it
is the observation that follows ``terminate`` (Fara echoes its answer there), else the terminate step's
thought. ``is_aborted`` in the answer file marks the run aborted; ``<no_answer>`` alone does not (the step
budget may have run out). There is no separate plan in this format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..actions.computer import computer_action
from ..errors import InputError
from ..model import AgentStep, AgentTrajectory, ReadProblem
from ._common import (
    ReadContext,
    get_field,
    iter_jsonl,
    json_reason,
    load_json,
    natural_key,
    read_each,
)

NAME = "fara"
LOG = "web_surfer.log"
NO_ANSWER = "<no_answer>"
_ACTION = re.compile(r"Action\s*#\s*(\d+)\s*:\s*executing tool\s*'([^']+)'\s*with arguments\s*(.*?)\s*$", re.DOTALL)
_THOUGHT = re.compile(r"Thought\s*#\s*(\d+)\s*:\s*(.*?)(?=\n\s*Action\s*#|\Z)", re.DOTALL)
_OBSERVATION = re.compile(r"^\s*Observation\s*#\s*(\d+)\s*:\s*(.*)$", re.DOTALL)


def looks_like(path: Path) -> bool:
    """Detection: a web_surfer.log, or a folder holding one (or folders that do)."""
    if path.is_file():
        return path.name == LOG
    return bool(logs(path))


def logs(path: Path) -> list[Path]:
    """The web_surfer.log files of a path."""
    if path.is_file():
        return [path]
    if (path / LOG).is_file():
        return [path / LOG]
    subdirs = sorted((p for p in path.iterdir() if p.is_dir()), key=lambda p: natural_key(p.name))
    return [p / LOG for p in subdirs if (p / LOG).is_file()]


def _answer_file(folder: Path) -> Path | None:
    found = sorted(folder.glob("*_answer.json")) + sorted(folder.glob("*-final_answer.json"))
    return found[0] if found else None


def _task_id(folder: Path, answer: Path | None) -> str:
    if answer is not None:
        stem = answer.name
        for suffix in ("_final_answer.json", "-final_answer.json", "_answer.json"):
            if stem.endswith(suffix) and len(stem) > len(suffix):
                return stem[: -len(suffix)]
    return folder.name


def read_log(log: Path, ctx: ReadContext) -> AgentTrajectory:
    """Read one trajectory; raises InputError on bad data."""
    label = str(log)
    folder = log.parent
    answer_path = _answer_file(folder)
    steps: list[AgentStep] = []
    observations: dict[int, str] = {}
    terminate_index: int | None = None
    for lineno, event, _ in iter_jsonl(log):
        if isinstance(event, InputError):
            raise event
        where = f"line {lineno}"
        if not isinstance(event, dict):
            raise InputError(label, where, None, "a JSON object", type(event).__name__)
        thought: str | None = None
        name: str | None = None
        args: dict[str, Any] | None = None
        number: int | None = None
        if event.get("action") is not None and isinstance(event.get("arguments"), dict):
            args = dict(event["arguments"])
            thought = args.pop("thoughts", None)
            name = str(args.get("action") or event["action"])
        else:
            message = get_field(event, "message", str, file=label, where=where, required=False)
            if not message:
                continue
            obs = _OBSERVATION.match(message)
            if obs:
                observations[int(obs.group(1))] = obs.group(2).strip()
                continue
            m = _ACTION.search(message)
            if m is None:
                continue  # progress and info lines
            number, name = int(m.group(1)), m.group(2)
            try:
                args = json.loads(m.group(3))
            except json.JSONDecodeError as exc:
                raise InputError(label, where, f"Action #{number} arguments", "a JSON object", json_reason(exc, m.group(3))) from None
            if not isinstance(args, dict):
                raise InputError(label, where, f"Action #{number} arguments", "a JSON object", type(args).__name__)
            t = _THOUGHT.search(message)
            thought = t.group(2).strip() if t else None
        args.setdefault("action", name)
        action = computer_action(args, raw=json.dumps(args, ensure_ascii=False))
        if action is None:
            continue
        if action.kind == "answer":
            terminate_index = number if number is not None else len(steps) + 1
        steps.append(AgentStep(action=action, thought=thought if isinstance(thought, str) and thought.strip() else None))

    meta: dict[str, Any] = {}
    final: str | None = None
    aborted = False
    reason = None
    if answer_path is not None:
        data = load_json(answer_path)
        value = get_field(data, "final_answer", (str, type(None)), file=str(answer_path), where=None, required=False)
        final = None if value in (None, "", NO_ANSWER) else value.strip()
        aborted = bool(get_field(data, "is_aborted", (bool, type(None)), file=str(answer_path), where=None, required=False))
        reason = f"is_aborted in {answer_path.name}" if aborted else None
        meta["answer_file"] = answer_path.name
    else:
        if terminate_index is not None and observations.get(terminate_index):
            final = observations[terminate_index]
        elif steps and steps[-1].action.kind == "answer":
            final = steps[-1].thought
        meta["answer_from"] = "log"
    if steps and steps[-1].action.kind == "answer" and final is not None:
        last = steps[-1]
        steps[-1] = last.model_copy(update={"action": last.action.model_copy(update={"value": final})})
    return AgentTrajectory(
        task_id=_task_id(folder, answer_path),
        steps=steps,
        final_answer=final,
        aborted=aborted,
        abort_reason=reason,
        source=str(folder if answer_path else log),
        format=NAME,
        meta=meta,
    )


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every trajectory under ``path``, one at a time."""
    yield from read_each(path, logs(path), "web_surfer.log files", lambda p: read_log(p, ctx), lambda p: p.parent.name)

