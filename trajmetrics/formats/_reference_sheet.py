"""The reference script's agent spreadsheet: columns ``Task No``, ``Step No``, ``Text``, ``Next Step``
(xlsx read with openpyxl in read-only mode, or csv).

``Text`` is the model's text for the step and ``Next Step`` the executed action in WebArena syntax, as
``evaluationMetrics.py`` reads them.

Element accuracy (planned vs executed):

- planned = the triple-backtick block of ``Text`` (``plan_block``: last as the script, or first);
- executed = ``Next Step``, with role and name from a ``where [id] is ...`` description when present.

A ``Next Step`` containing ``early stop`` (any case, as the script tests it) marks the step ``early_stop``.
Repairs are never silent: an empty ``Task No`` continues the task above, non-numeric ``Step No`` keeps file
order, and both are listed in ``meta["repairs"]``. Rows of one task are gathered even when the task appears
in two blocks, so the whole sheet's four text columns are held in memory (a sheet is small next to a run).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..actions.webarena import parse_action, planned_block
from ..errors import InputError, short
from ..model import Action, AgentStep, AgentTrajectory, ReadProblem, normalise_task_id
from ._common import ReadContext, guarded

NAME = "reference_sheet"
_COLUMNS = {"taskno": "task", "taskid": "task", "stepno": "step", "text": "text", "nextstep": "next"}
_REQUIRED = ("task", "text", "next")
_SUFFIXES = (".xlsx", ".xlsm", ".csv")


def _norm(header: Any) -> str:
    return re.sub(r"[\s._#-]+", "", str(header or "")).lower()


def _header_map(row: tuple[Any, ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    for i, cell in enumerate(row):
        key = _COLUMNS.get(_norm(cell))
        if key and key not in found:
            found[key] = i
    return found


def _rows(path: Path) -> Iterator[tuple[Any, ...]]:
    if path.suffix.lower() == ".csv":
        with open(path, encoding="utf-8-sig", newline="") as fh:
            for row in csv.reader(fh):
                yield tuple(row)
        return
    import openpyxl  # imported here: only this format needs it and it is slow to import

    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        for ws in wb.worksheets:
            yielded = False
            for row in ws.iter_rows(values_only=True):
                yielded = True
                yield row
            if yielded:
                return  # the first non-empty sheet is the data
    finally:
        wb.close()


def _header(path: Path, rows: Iterator[tuple[Any, ...]]) -> dict[str, int]:
    seen: list[str] = []
    for _, row in zip(range(10), rows):
        cols = _header_map(row)
        if all(k in cols for k in _REQUIRED):
            return cols
        if not seen and any(c not in (None, "") for c in row):
            seen = [str(c) for c in row if c not in (None, "")]  # the first non-empty row: the header it has
    raise InputError(str(path), "header", None, "columns Task No, Step No, Text, Next Step", short(seen) if seen else "no header row")


def looks_like(path: Path) -> bool:
    """Detection: an xlsx/csv whose header names the reference columns."""
    if path.is_dir() or path.suffix.lower() not in _SUFFIXES:
        return False
    try:
        _header(path, _rows(path))
    except Exception:  # any failure means "not this format"; openpyxl raises its own types on non-workbooks
        return False
    return True


def files(path: Path) -> list[Path]:
    """The sheets of a path (a folder's xlsx/csv files that carry the reference header)."""
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix.lower() in _SUFFIXES and looks_like(p))
    return [path]


def _cell(row: tuple[Any, ...], index: int | None) -> Any:
    if index is None or index >= len(row):
        return None
    value = row[index]
    return None if isinstance(value, str) and not value.strip() else value


def _step_no(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def _task(label: str, task_id: str, rows: list[tuple[int, Any, Any, Any]], repairs: list[str], ctx: ReadContext) -> AgentTrajectory:
    numbers = [_step_no(step) for _, step, _, _ in rows]
    if all(n is not None for n in numbers):
        order = sorted(range(len(rows)), key=lambda i: (numbers[i], i))  # the script sorts by Step No
    else:
        bad = [rows[i][1] for i, n in enumerate(numbers) if n is None]
        repairs.append(f"Step No not numeric ({short(bad, 60)}): kept file order")
        order = list(range(len(rows)))
    steps: list[AgentStep] = []
    missing: list[int] = []
    for k, i in enumerate(order):
        line, _, text, nxt = rows[i]
        text = None if text is None else str(text)
        nxt_text = None if nxt is None else str(nxt)
        action, error = parse_action(nxt_text) if nxt_text else (None, None)
        if action is None:
            if nxt_text:
                error = "unrecognised Next Step"
            else:
                missing.append(k)
            action = Action(kind="other", raw=nxt_text or "")
        plan_raw = planned_block(text, ctx.plan_block)
        planned = parse_action(plan_raw, planned=True)[0] if plan_raw else None
        steps.append(
            AgentStep(
                action=action,
                thought=text.strip() if text and text.strip() else None,
                planned=planned,
                planned_raw=plan_raw,
                error=error,
                early_stop=bool(nxt_text and "early stop" in nxt_text.lower()),
                plan_source=f"{ctx.plan_block}_block" if plan_raw else None,
            )
        )
    meta: dict[str, Any] = {"rows": [rows[i][0] for i in order]}
    if repairs:
        meta["repairs"] = repairs
    if missing:
        meta["missing_next_step"] = missing
    final = None
    for step in steps:
        if step.action.kind == "answer" and not step.early_stop:
            final = step.action.value or None
    return AgentTrajectory(task_id=task_id, steps=steps, final_answer=final, source=label, format=NAME, meta=meta)


def read_file(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every task of one sheet."""
    label = str(path)
    rows = _rows(path)
    try:
        cols = _header(path, rows)
    except InputError as exc:
        yield ReadProblem(message=str(exc), source=label)
        return
    tasks: dict[str, list[tuple[int, Any, Any, Any]]] = {}
    repairs: dict[str, list[str]] = {}
    problems: list[ReadProblem] = []
    current: str | None = None
    previous: str | None = None
    line = 1
    for row in rows:
        line += 1
        raw_task = _cell(row, cols.get("task"))
        text, nxt, step = _cell(row, cols.get("text")), _cell(row, cols.get("next")), _cell(row, cols.get("step"))
        if raw_task is None and text is None and nxt is None and step is None:
            continue
        if raw_task is None:
            if current is None:
                problems.append(ReadProblem(message=f"{label}:row {line}: Task No: expected a task id, found an empty cell before any task", source=label))
                continue
            repairs.setdefault(current, []).append(f"row {line}: empty Task No, continued task {current}")
        else:
            try:
                current = normalise_task_id(raw_task)
            except ValueError as exc:
                problems.append(ReadProblem(message=f"{label}:row {line}: Task No: expected a task id, found {short(raw_task)} ({exc})", source=label))
                continue
        if current != previous and current in tasks:
            repairs.setdefault(current, []).append(f"row {line}: task appears again after other tasks; blocks joined")
        previous = current
        tasks.setdefault(current, []).append((line, step, text, nxt))
    yield from problems
    for task_id, task_rows in tasks.items():
        yield guarded(lambda t=task_id, r=task_rows: _task(label, t, r, repairs.get(t, []), ctx), source=label, task_id=task_id)


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every task of every sheet under ``path``."""
    for p in files(path):
        yield from read_file(p, ctx)
