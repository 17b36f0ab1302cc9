"""The human gold spreadsheet (xlsx or csv: ``Task No.``, ``Step No.``, ``Text``) -> gold tasks.

Repairs, each reported as a :class:`GoldDefect` (see ``read_gold`` for the list):

- an empty ``Task No.`` continues the task of the row above (``empty_task_id``);
- a non-numeric ``Step No.`` (``Pink``) keeps the row where it is (``bad_step_no``);
- a task in several blocks gets its blocks concatenated in **file order**, never re-sorted by step
  number (``split_task``); alignment labels index gold steps in file order;
- steps not numbered 1..n are kept in file order (``misnumbered``; tasks with non-numeric step
  numbers are reported by ``bad_step_no`` instead);
- a row without text is dropped (``empty_text``); fully blank rows are skipped (``blank_rows``);
- ``Task No.`` floats become string ids (``809.0`` -> ``"809"``), silently: that is the type, not a defect.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..actions.gold_text import parse_gold_step
from ..errors import InputError
from ..model import GoldStep, GoldTrajectory, ReadProblem, normalise_task_id
from ._checks import Block
from ._models import GoldDefect

_COLUMNS = ("Task No.", "Step No.", "Text")
_EXPECTED_HEADER = "a header row with columns Task No., Step No., Text"


@dataclass
class _Row:
    number: int
    """Sheet row / file line number (1-based, header included)."""
    label: str
    """``row 12`` / ``line 12``."""
    task: Any
    step: Any
    text: Any


def _norm_header(value: Any) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value or "").lower())


def _column_of(header: str) -> str | None:
    h = _norm_header(header)
    if not h:
        return None
    if h in ("taskno", "task", "taskid", "tasknumber", "tasknum", "taskidx") or h.startswith("task"):
        return "task"
    if h in ("stepno", "step", "stepnumber", "stepnum", "stepid", "stepidx") or (h.startswith("step") and "text" not in h):
        return "step"
    if h in ("text", "steptext", "description", "stepdescription", "instruction", "action") or "text" in h:
        return "text"
    return None


def _header_map(cells: tuple[Any, ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    for i, cell in enumerate(cells):
        col = _column_of(cell) if cell is not None else None
        if col and col not in found:
            found[col] = i
    return found


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _rows_from(cells_iter: Iterable[tuple[int, tuple[Any, ...]]], path: str, unit: str) -> tuple[list[_Row], int]:
    """Find the header (first non-blank row), map the columns, return data rows and the header row number."""
    header: dict[str, int] | None = None
    header_no = 0
    rows: list[_Row] = []
    for number, cells in cells_iter:
        if header is None:
            if all(_blank(c) for c in cells):
                continue
            header = _header_map(cells)
            header_no = number
            missing = [c for c, key in zip(_COLUMNS, ("task", "step", "text")) if key not in header]
            if missing:
                found = ", ".join(repr(c) for c in cells if not _blank(c)) or "no column names"
                raise InputError(path, f"{unit} {number}", "header", f"{_EXPECTED_HEADER} (missing {', '.join(missing)})",
                                 found)
            continue

        def cell(key: str) -> Any:
            i = header[key]  # type: ignore[index]
            return cells[i] if i < len(cells) else None

        rows.append(_Row(number, f"{unit} {number}", cell("task"), cell("step"), cell("text")))
    if header is None:
        raise InputError(path, None, None, _EXPECTED_HEADER, "an empty file")
    return rows, header_no


def read_xlsx_rows(path: str) -> list[_Row]:
    """Data rows of the first sheet that has the gold columns."""
    import openpyxl  # lazily: only xlsx input needs it
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        # from bytes, so a workbook under another extension (detected by its zip header) still opens
        wb = openpyxl.load_workbook(io.BytesIO(Path(path).read_bytes()), read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise InputError(path, None, None, "an .xlsx workbook", f"{type(exc).__name__}: {exc}") from None
    try:
        first_error: InputError | None = None
        for ws in wb.worksheets:
            try:
                rows, _ = _rows_from(
                    ((n, tuple(r)) for n, r in enumerate(ws.iter_rows(min_row=1, values_only=True), start=1)),
                    path, "row")
                return rows
            except InputError as exc:
                first_error = first_error or exc
        if first_error is None:
            raise InputError(path, None, None, "a worksheet", "a workbook without sheets")
        raise first_error
    finally:
        wb.close()


def read_csv_rows(path: str, defects: list[GoldDefect]) -> list[_Row]:
    """Data rows of a csv/tsv file; the delimiter is sniffed, the encoding is UTF-8 (cp1252 fallback)."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw.decode("cp1252", errors="replace")
        defects.append(GoldDefect(
            kind="encoding", record=f"byte {exc.start}",
            message=f"the file is not UTF-8 ({exc.reason} at byte {exc.start})",
            action="decoded it as cp1252 (Windows-1252); check accented characters"))
    if not text.strip():
        raise InputError(path, None, None, _EXPECTED_HEADER, "an empty file")
    # The delimiter is the one the header line uses most. csv.Sniffer is not used: the step texts are
    # full of single quotes and it then guesses "'" as the quote character, which garbles them.
    header_line = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(",;\t|", key=header_line.count) if any(d in header_line for d in ",;\t|") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)

    def cells() -> Iterable[tuple[int, tuple[Any, ...]]]:
        for record in reader:
            # line_num is the physical line the record ended on; multi-line texts make it jump
            yield reader.line_num, tuple(record)

    try:
        rows, _ = _rows_from(cells(), path, "line")
    except csv.Error as exc:
        raise InputError(path, f"line {reader.line_num}", None, "well-formed CSV", str(exc)) from None
    return rows


def _step_no(value: Any) -> tuple[str | None, bool]:
    """(step number as written, is it an integer)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, False
    if isinstance(value, bool):
        return str(value), False
    if isinstance(value, int):
        return str(value), True
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value)), True
        return repr(value), False
    text = str(value).strip()
    if re.fullmatch(r"\d+(?:\.0+)?", text):
        return str(int(float(text))), True
    return text, False


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"


def _compress(numbers: list[str | None], limit: int = 40) -> str:
    shown = ", ".join("?" if n is None else n for n in numbers[:limit])
    return shown + (f", ... ({len(numbers)} in all)" if len(numbers) > limit else "")


def tasks_from_rows(
    rows: list[_Row], path: str, defects: list[GoldDefect], problems: list[ReadProblem]
) -> tuple[dict[str, GoldTrajectory], dict[str, list[Block]]]:
    """Clean the rows into tasks (file order) and their blocks. Every repair is appended to ``defects``."""
    blocks: list[Block] = []
    numbers: dict[str, list[tuple[str | None, bool]]] = {}
    current: str | None = None
    blank = 0
    unit = rows[0].label.split()[0] if rows else "row"
    for row in rows:
        if _blank(row.task) and _blank(row.step) and _blank(row.text):
            blank += 1
            continue
        if _blank(row.task):
            if current is None:
                problems.append(ReadProblem(
                    message=str(InputError(path, row.label, "Task No.", "a task id (no task above to continue)", "an empty cell")),
                    source=path, kind="gold"))
                continue
            task_id = current
            defects.append(GoldDefect(
                kind="empty_task_id", task_id=task_id, record=row.label,
                message=f"Task No. is empty (step {row.step!r}: {str(row.text or '')[:60]!r})",
                action=f"continued task {task_id} from the row above", evidence={"row": row.number}))
        else:
            try:
                task_id = normalise_task_id(row.task)
            except ValueError as exc:
                problems.append(ReadProblem(
                    message=str(InputError(path, row.label, "Task No.", "a task id", repr(row.task))),
                    source=path, kind="gold"))
                del exc
                continue
            if _column_of(task_id) == "task" and _column_of(row.text or "") == "text":
                defects.append(GoldDefect(
                    kind="header_row", record=row.label, message="a second header row in the data",
                    action="skipped the row", evidence={"row": row.number}))
                continue
            if not re.fullmatch(r"\d+", task_id):
                defects.append(GoldDefect(
                    kind="odd_task_id", task_id=task_id, record=row.label,
                    message=f"Task No. {row.task!r} is not a number (WebArena task ids are numbers)",
                    action="kept it as the string id", evidence={"row": row.number, "value": str(row.task)}))
        current = task_id
        if _blank(row.text):
            defects.append(GoldDefect(
                kind="empty_text", task_id=task_id, record=row.label,
                message=f"step {row.step!r} has no text", action="dropped the row (no step to match)",
                evidence={"row": row.number}))
            continue
        step_no, numeric = _step_no(row.step)
        if not numeric:
            defects.append(GoldDefect(
                kind="bad_step_no", task_id=task_id, record=row.label,
                message=f"Step No. is {row.step!r}, not a number",
                action="kept the row in file order", evidence={"row": row.number, "value": step_no}))
        text = row.text if isinstance(row.text, str) else str(row.text)
        step = GoldStep(text=text, action=parse_gold_step(text), step_no=step_no)
        if not blocks or blocks[-1].task_id != task_id:
            blocks.append(Block(task_id, row.number, row.number, ""))
        blocks[-1].steps.append(step)
        blocks[-1].last_row = row.number
        numbers.setdefault(task_id, []).append((step_no, numeric))
    if blank:
        defects.append(GoldDefect(
            kind="blank_rows", message=f"{blank} blank {unit}{'s' if blank > 1 else ''}",
            action="skipped them", evidence={"count": blank}))

    by_task: dict[str, list[Block]] = {}
    for b in blocks:
        b.label = f"{unit}s {b.first_row}-{b.last_row}" if b.last_row != b.first_row else f"{unit} {b.first_row}"
        by_task.setdefault(b.task_id, []).append(b)

    tasks: dict[str, GoldTrajectory] = {}
    for task_id, bs in by_task.items():
        steps = [s for b in bs for s in b.steps]  # file order, never re-sorted
        tasks[task_id] = GoldTrajectory(task_id=task_id, steps=steps, source=path)
        if len(bs) > 1:
            defects.append(GoldDefect(
                kind="split_task", task_id=task_id, record=", ".join(b.label for b in bs),
                message=f"task {task_id} appears in {len(bs)} separate blocks ("
                        + "; ".join(f"{b.label}: {_steps(len(b.steps))}" for b in bs) + ")",
                action="concatenated the blocks in file order (not re-sorted by step number)",
                evidence={"blocks": [[b.first_row, b.last_row] for b in bs]}))
        nums = numbers[task_id]
        if all(numeric for _, numeric in nums):
            seq = [n for n, _ in nums]
            if seq != [str(i) for i in range(1, len(seq) + 1)]:
                defects.append(GoldDefect(
                    kind="misnumbered", task_id=task_id, record=", ".join(b.label for b in bs),
                    message=f"steps numbered {_compress(seq)} (expected 1..{len(seq)})",
                    action="kept file order", evidence={"step_numbers": seq}))
    return tasks, by_task
