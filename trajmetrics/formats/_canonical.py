"""The canonical format: JSON lines, one ``AgentTrajectory.model_dump(mode="json")`` per line
(what ``trajmetrics agent convert`` writes). Validation errors read ``file:line N: field.path: expected ...,
found ...``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from ..errors import InputError
from ..model import AgentTrajectory, ReadProblem
from ._common import ReadContext, iter_jsonl, validation_problem

NAME = "canonical"


def looks_like_record(row: Any) -> bool:
    """A parsed line in this format: task_id and a list of steps whose actions carry a kind."""
    if not isinstance(row, dict) or "task_id" not in row or not isinstance(row.get("steps"), list):
        return False
    steps = row["steps"]
    return not steps or (isinstance(steps[0], dict) and isinstance(steps[0].get("action"), dict) and "kind" in steps[0]["action"])


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every trajectory of a canonical .jsonl file (or a folder of them)."""
    paths = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    for p in paths:
        label = str(p)
        for lineno, row, _ in iter_jsonl(p):
            where = f"line {lineno}"
            if isinstance(row, InputError):
                yield ReadProblem(message=str(row), source=label)
                continue
            tid = row.get("task_id") if isinstance(row, dict) else None
            try:
                traj = AgentTrajectory.model_validate(row)
            except ValidationError as exc:
                yield ReadProblem(message=str(validation_problem(exc, file=label, where=where)), source=label, task_id=None if tid is None else str(tid))
                continue
            if traj.source is None:
                traj.source = f"{label}:{where}"
            yield traj


def write(trajs: Iterable[AgentTrajectory | ReadProblem], out: IO[str]) -> int:
    """Write trajectories one per line; ReadProblems are skipped. Returns how many were written."""
    n = 0
    for traj in trajs:
        if isinstance(traj, ReadProblem):
            continue
        if not isinstance(traj, AgentTrajectory):
            raise TypeError(f"expected AgentTrajectory, found {type(traj).__name__}")
        out.write(traj.model_dump_json())
        out.write("\n")
        n += 1
    return n
