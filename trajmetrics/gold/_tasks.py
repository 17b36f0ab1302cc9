"""WebArena task configs (``test.raw.json``) -> :class:`TaskConfig` by task id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import ReadProblem, normalise_task_id
from ._models import TaskConfig


def _str_list(value: Any) -> list[str]:
    return [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in value]


def task_config_from_dict(raw: dict[str, Any]) -> TaskConfig:
    """One WebArena config dict -> TaskConfig. Raises ValueError/TypeError with the bad field named.

    A requirement list is a list: ``must_include`` first, else a list-valued ``fuzzy_match``. A string
    ``fuzzy_match`` (``"N/A"``) is an expected answer, kept in ``fuzzy_match_text``, not a requirement.

    >>> c = task_config_from_dict({"task_id": 7, "intent": "x", "sites": ["map"],
    ...     "eval": {"reference_answers": {"must_include": ["a, b", "c"]}}})
    >>> c.task_id, c.requirements
    ('7', ['a, b', 'c'])
    """
    if "task_id" not in raw:
        raise ValueError("task_id: expected a task id, found nothing")
    try:
        task_id = normalise_task_id(raw["task_id"])
    except ValueError as exc:
        raise ValueError(f"task_id: {exc}") from None
    ev = raw.get("eval") or {}
    if not isinstance(ev, dict):
        raise TypeError(f"eval: expected an object, found {type(ev).__name__}")
    ra = ev.get("reference_answers") or {}
    if not isinstance(ra, dict):
        raise TypeError(f"eval.reference_answers: expected an object, found {type(ra).__name__}")
    requirements: list[str] = []
    source = None
    must, fuzzy = ra.get("must_include"), ra.get("fuzzy_match")
    if isinstance(must, list):
        requirements, source = _str_list(must), "must_include"
    elif isinstance(must, str) and must.strip():
        # one string is one requirement; splitting it on commas would break addresses
        requirements, source = [must], "must_include"
    elif isinstance(fuzzy, list):
        requirements, source = _str_list(fuzzy), "fuzzy_match"
    sites = raw.get("sites") or []
    if isinstance(sites, str):
        sites = [sites]
    if not isinstance(sites, list):
        raise TypeError(f"sites: expected a list of site names, found {type(sites).__name__}")
    eval_types = ev.get("eval_types") or []
    exact = ra.get("exact_match")
    return TaskConfig(
        task_id=task_id,
        intent=raw.get("intent") if isinstance(raw.get("intent"), str) else None,
        sites=[str(s) for s in sites],
        requirements=requirements,
        requirement_source=source,  # type: ignore[arg-type]
        exact_match=None if exact is None else str(exact),
        fuzzy_match_text=fuzzy if isinstance(fuzzy, str) else None,
        string_note=ev.get("string_note") or None,
        eval_types=[str(t) for t in eval_types] if isinstance(eval_types, list) else [str(eval_types)],
        start_url=raw.get("start_url") if isinstance(raw.get("start_url"), str) else None,
    )


def _records(path: Path) -> list[tuple[str, Any]]:
    """(record label, decoded JSON) for a config list, a single config, JSONL, or a folder of files."""
    if path.is_dir():
        out = []
        for f in sorted(path.glob("*.json"), key=lambda p: (len(p.stem), p.stem)):
            try:
                out.append((f.name, json.loads(f.read_text(encoding="utf-8"))))
            except json.JSONDecodeError as exc:
                out.append((f.name, exc))
        if not out:
            raise InputError(str(path), None, None, "a WebArena config file or a folder of *.json configs", "an empty folder")
        return out
    text = path.read_text(encoding="utf-8-sig")
    if not text.strip():
        raise InputError(str(path), None, None, "WebArena task configs (a JSON list)", "an empty file")
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        out = []
        for n, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    out.append((f"line {n}", json.loads(line)))
                except json.JSONDecodeError as exc:
                    out.append((f"line {n}", exc))
        return out
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(str(path), f"line {exc.lineno}", None, "valid JSON", exc.msg) from None
    if isinstance(data, dict) and "task_id" in data:
        return [("record 0", data)]
    if isinstance(data, dict):
        # {"0": {...}, "1": {...}}
        return [(f"key {k!r}", v) for k, v in data.items()]
    if isinstance(data, list):
        return [(f"record {i}", v) for i, v in enumerate(data)]
    raise InputError(str(path), None, None, "a JSON list of task configs", type(data).__name__)


def load_task_configs(path: str | Path, *, problems: list[ReadProblem] | None = None) -> dict[str, TaskConfig]:
    """Read WebArena task configs (``test.raw.json``, a folder of ``<id>.json``, or JSONL) by task id.

    A bad record raises :class:`~trajmetrics.errors.InputError`, unless a ``problems`` list is given:
    then it is appended there and the other records are still read.

    Example::

        configs = load_task_configs("../shared/data/webarena/test.raw.json")
        configs["10"].requirements[:1]    # ['Niagara Falls International Airport, 2035, ...']
    """
    path = Path(path)
    if not path.exists():
        raise InputError(str(path), None, None, "an existing task config file or folder", "nothing at that path")
    configs: dict[str, TaskConfig] = {}
    for record, raw in _records(path):
        try:
            if isinstance(raw, json.JSONDecodeError):
                raise InputError(str(path), record, None, "valid JSON", raw.msg)
            if not isinstance(raw, dict):
                raise InputError(str(path), record, None, "a task config object", type(raw).__name__)
            try:
                cfg = task_config_from_dict(raw)
            except (TypeError, ValueError) as exc:
                field, _, detail = str(exc).partition(": ")
                raise InputError(str(path), record, field, detail.removeprefix("expected ") or "a valid value") from None
            if cfg.task_id in configs:
                raise InputError(str(path), record, "task_id", "a task id not seen before", cfg.task_id,
                                 task_id=cfg.task_id)
            configs[cfg.task_id] = cfg
        except InputError as exc:
            if problems is None:
                raise
            problems.append(ReadProblem(message=str(exc), source=str(path), task_id=exc.task_id, kind="gold"))
    return configs
