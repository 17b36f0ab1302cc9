"""``read_gold``: detect the format, read, clean, join task configs, check blocks."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ..errors import ConfigError, InputError
from ..model import GoldTrajectory, ReadProblem
from ._checks import repeated_blocks, suspect_blocks
from ._jsonl import read_gold_jsonl
from ._models import GoldDefect, GoldFormat, GoldSet, TaskConfig
from ._table import read_csv_rows, read_xlsx_rows, tasks_from_rows
from ._tasks import load_task_configs

_XLSX = (".xlsx", ".xlsm", ".xltx", ".xltm")
_CSV = (".csv", ".tsv", ".txt")
_JSONL = (".jsonl", ".ndjson", ".json")
_LIST_LIMIT = 30


def detect_format(path: str | Path) -> GoldFormat:
    """xlsx / csv / jsonl from the extension, else from the first bytes.

    >>> detect_format("gold.xlsx"), detect_format("gold.jsonl")
    ('xlsx', 'jsonl')
    """
    p = Path(path)
    ext = p.suffix.lower()
    if ext in _XLSX:
        return "xlsx"
    if ext in _CSV:
        return "csv"
    if ext in _JSONL:
        return "jsonl"
    head = p.read_bytes()[:512] if p.is_file() else b""
    if head.startswith(b"PK\x03\x04"):
        return "xlsx"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
        return "jsonl"
    return "csv"


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:_LIST_LIMIT])
    return shown + (f", ... ({len(ids)} in all)" if len(ids) > _LIST_LIMIT else "")


def _join(gold: GoldSet, configs: dict[str, TaskConfig], tasks_path: str) -> None:
    """Fill intent, sites and requirements from the configs; explicit values in the gold file win."""
    missing = []
    for task_id, traj in gold.tasks.items():
        cfg = configs.get(task_id)
        if cfg is None:
            missing.append(task_id)
            continue
        if traj.intent is None:
            traj.intent = cfg.intent
        if not traj.sites:
            traj.sites = list(cfg.sites)
        if not traj.requirements:
            traj.requirements = list(cfg.requirements)
    if missing:
        gold.defects.append(GoldDefect(
            kind="no_config", record=tasks_path,
            message=(f"{len(missing)} gold task{'s have' if len(missing) > 1 else ' has'} no task config: "
                     f"{_ids(missing)}"),
            action="kept them without intent, sites or requirements", evidence={"task_ids": missing}))
    unused = [tid for tid in configs if tid not in gold.tasks]
    if unused:
        gold.defects.append(GoldDefect(
            kind="no_gold", record=tasks_path,
            message=(f"{len(unused)} task config{'s have' if len(unused) > 1 else ' has'} no gold path: "
                     f"{_ids(unused)}"),
            action="ignored (no gold steps to score against)", evidence={"task_ids": unused}))


GoldRepeats = Literal["keep", "drop"]


def read_gold(path: str | Path, tasks_path: str | Path | None = None, *, repeats: GoldRepeats = "keep") -> GoldSet:
    """Read gold trajectories from the human xlsx/csv or canonical JSONL, optionally joining WebArena configs.

    The format is detected from the extension (or the first bytes). Table files are cleaned (see
    :mod:`trajmetrics.gold._table`); every repair is a :class:`GoldDefect` in ``defects``, every record that
    could not be read a :class:`~trajmetrics.model.ReadProblem` in ``problems``. A whole file that cannot be
    read (missing, empty, no gold columns) raises :class:`~trajmetrics.errors.InputError`.

    With ``tasks_path`` (WebArena ``test.raw.json``) each task gets its intent, sites and requirements;
    gold tasks without a config and configs without gold are reported as one defect each, and blocks of
    rows whose wording belongs to another site are reported as ``suspect_block``.

    A later block that repeats most of an earlier one is a second recording of the task
    (``repeated_block``): ``repeats="keep"`` (default) keeps both, concatenated in file order, as alignment
    labels index them; ``repeats="drop"`` scores the first recording only (the drop is reported).

    Example::

        gold = read_gold("../shared/data/webarena-human-gold/Golden Human Trajectories.xlsx")
        len(gold.tasks), gold.n_steps()    # (652, 4350)
    """
    path = Path(path)
    if not path.is_file():
        what = "a folder" if path.is_dir() else "nothing at that path"
        raise InputError(str(path), None, None, "a gold file (.xlsx, .csv or .jsonl)", what)
    fmt = detect_format(path)
    src = str(path)
    blocks = {}
    if fmt == "jsonl":
        gold = read_gold_jsonl(src)
    else:
        defects: list[GoldDefect] = []
        problems: list[ReadProblem] = []
        rows = read_xlsx_rows(src) if fmt == "xlsx" else read_csv_rows(src, defects)
        tasks, blocks = tasks_from_rows(rows, src, defects, problems)
        gold = GoldSet(tasks=tasks, defects=defects, problems=problems, source=src, format=fmt)
    if tasks_path is not None:
        configs = load_task_configs(tasks_path, problems=gold.problems)
        _join(gold, configs, str(tasks_path))
    if repeats not in ("keep", "drop"):
        raise ConfigError(f"unknown value {repeats!r} for repeats; valid values: keep, drop")
    for task_id, bs in blocks.items():
        found = repeated_blocks(bs) if len(bs) > 1 else []
        if repeats == "drop" and found:
            _drop_repeated(gold.tasks[task_id], bs, found)
        found += suspect_blocks(bs, gold.tasks[task_id].sites, len(bs))
        gold.defects.extend(found)
    # each task carries its own repairs, so they survive a round trip through JSONL
    for d in gold.defects:
        if d.task_id is not None and d.task_id in gold.tasks and d.kind != "recorded_repair":
            gold.tasks[d.task_id].repairs.append(f"{d.kind}: {d.message} -> {d.action}")
    return gold


def _drop_repeated(task: GoldTrajectory, blocks: list, defects: list[GoldDefect]) -> None:
    """Remove the steps of the blocks reported as second recordings, and say so in their defects."""
    dropped = {d.record for d in defects}
    gone = {id(step) for b in blocks if b.label in dropped for step in b.steps}
    task.steps = [step for step in task.steps if id(step) not in gone]
    for d in defects:
        d.action = "dropped this second recording: only the first is scored (repeats='drop')"
