"""Canonical gold JSONL: one :class:`~trajmetrics.model.GoldTrajectory` per line.

Each line is ``GoldTrajectory.model_dump(mode="json")``::

    {"task_id": "809", "intent": "Create an issue ...", "requirements": [], "sites": ["gitlab"],
     "source": "Golden Human Trajectories.xlsx", "repairs": ["misnumbered: steps numbered ..."],
     "steps": [{"text": "Click on the link 'Issues'", "step_no": "2",
                "action": {"kind": "click", "target": {"id": null, "role": "link", "name": "Issues",
                           "x": null, "y": null}, "value": null, "submit": false,
                           "raw": "Click on the link 'Issues'", "tool": null, "args": null}}]}

Lines are in task order; steps are in gold order. ``repairs`` lists the defects the converter found
in that task (``<kind>: <message> -> <action>``), so they travel with the data and ``gold lint`` shows
them again. Blank lines are ignored.

For hand-written files the reader is lenient: a step may be a plain string or an object without
``action``; its action is then parsed from the text with
:func:`~trajmetrics.actions.gold_text.parse_gold_step`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..actions.gold_text import parse_gold_step
from ..errors import InputError
from ..model import GoldTrajectory, ReadProblem
from ._models import GoldDefect, GoldSet


def _fill_actions(raw: dict[str, Any]) -> dict[str, Any]:
    steps = raw.get("steps")
    if not isinstance(steps, list):
        return raw
    out = []
    for step in steps:
        if isinstance(step, str):
            step = {"text": step}
        if isinstance(step, dict) and "action" not in step and isinstance(step.get("text"), str):
            step = {**step, "action": parse_gold_step(step["text"]).model_dump()}
        out.append(step)
    return {**raw, "steps": out}


def _validation_problem(path: str, record: str, exc: ValidationError, task_id: str | None) -> ReadProblem:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or None
    expected = err["msg"]
    for prefix in ("Input should be ", "Value error, "):
        expected = expected.removeprefix(prefix)
    found = err.get("input") if err["type"] != "missing" else "nothing"
    more = len(exc.errors()) - 1
    message = str(InputError(path, record, field, expected + (f" (and {more} more errors)" if more else ""), found))
    return ReadProblem(message=message, source=path, task_id=task_id, kind="gold")


def read_gold_jsonl(path: str) -> GoldSet:
    """Read canonical gold JSONL (or a JSON list of the same objects). Bad lines become problems."""
    text = Path(path).read_text(encoding="utf-8-sig")
    if not text.strip():
        raise InputError(path, None, None, "gold JSONL (one GoldTrajectory per line)", "an empty file")
    records: list[tuple[str, Any]] = []
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(path, f"line {exc.lineno}", None, "valid JSON", exc.msg) from None
        records = [(f"record {i}", v) for i, v in enumerate(data)]
    else:
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((f"line {n}", json.loads(line)))
            except json.JSONDecodeError as exc:
                records.append((f"line {n}", InputError(path, f"line {n}", None, "a JSON object",
                                                         f"invalid JSON ({exc.msg} at column {exc.colno})")))
    gold = GoldSet(source=path, format="jsonl")
    seen: dict[str, str] = {}
    for record, raw in records:
        if isinstance(raw, InputError):
            gold.problems.append(ReadProblem(message=str(raw), source=path, kind="gold"))
            continue
        if not isinstance(raw, dict):
            gold.problems.append(ReadProblem(
                message=str(InputError(path, record, None, "a GoldTrajectory object", type(raw).__name__)),
                source=path, kind="gold"))
            continue
        task_id = str(raw.get("task_id")) if raw.get("task_id") is not None else None
        try:
            traj = GoldTrajectory.model_validate(_fill_actions(raw))
        except ValidationError as exc:
            gold.problems.append(_validation_problem(path, record, exc, task_id))
            continue
        if traj.task_id in seen:
            gold.defects.append(GoldDefect(
                kind="duplicate_task", task_id=traj.task_id, record=record,
                message=f"task {traj.task_id} was already read at {seen[traj.task_id]}",
                action="kept the first record, skipped this one"))
            continue
        seen[traj.task_id] = record
        if traj.source is None:
            traj.source = path
        gold.tasks[traj.task_id] = traj
        for note in traj.repairs:
            gold.defects.append(GoldDefect(
                kind="recorded_repair", task_id=traj.task_id, record=record, message=note,
                action="repaired when the file was written (listed in the task's repairs)"))
    return gold


def write_gold_jsonl(goldset: GoldSet, path: str | Path) -> int:
    """Write canonical gold JSONL (module docstring), one task per line in task order; returns the count.

    >>> import tempfile, os
    >>> from trajmetrics.model import GoldTrajectory
    >>> gs = GoldSet(tasks={"1": GoldTrajectory(task_id="1")})
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_gold_jsonl(gs, os.path.join(d, "gold.jsonl"))
    1
    """
    path = Path(path)
    if path.parent and not path.parent.exists():
        raise InputError(str(path), None, None, "an existing output folder", str(path.parent))
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        for traj in goldset.tasks.values():
            fh.write(json.dumps(traj.model_dump(mode="json"), ensure_ascii=False) + "\n")
    tmp.replace(path)  # a crash never leaves half a file under the real name
    return len(goldset.tasks)
