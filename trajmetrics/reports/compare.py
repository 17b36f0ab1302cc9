"""Paired comparison of two scored runs on the same tasks (METRICS.md section 4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..errors import InputError
from ..metrics import METRIC_NAMES, PairedDifference, paired_difference


class MetricComparison(BaseModel):
    metric: str
    mean_a: float | None
    """Mean of run A over the tasks both runs have and where the metric applies to both."""
    mean_b: float | None
    difference: PairedDifference
    """B minus A, with a paired bootstrap 95% interval."""


def load_task_values(path: str | Path) -> dict[str, dict[str, float | None]]:
    """Per-task metric values from a `score --format json` or `--format jsonl` report."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    tasks: list[dict[str, Any]] = []
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
            raise InputError(str(p), None, "tasks", "a report from `trajmetrics score --format json`", type(data).__name__)
        tasks = data["tasks"]
    except json.JSONDecodeError:
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(str(p), f"line {n}", None, "a JSON report (json or jsonl)", f"invalid JSON ({exc.msg})") from None
            if row.get("type") == "task":
                tasks.append(row)
    out: dict[str, dict[str, float | None]] = {}
    for k, t in enumerate(tasks):
        if not isinstance(t, dict) or "task_id" not in t:
            raise InputError(str(p), f"task {k}", "task_id", "a task object with a task_id", t)
        if t.get("status", "scored") != "scored":
            continue
        out[str(t["task_id"])] = {m: t.get(m) for m in METRIC_NAMES}
    return out


def compare_runs(a: dict[str, dict[str, float | None]], b: dict[str, dict[str, float | None]], *,
                 samples: int = 2000, seed: int = 0) -> list[MetricComparison]:
    """Per metric: both means and the paired difference B - A over the tasks both runs scored.

    >>> r = compare_runs({"1": {"recovery_rate": 0.5}}, {"1": {"recovery_rate": 1.0}}, samples=0)
    >>> r[0].difference.mean_diff
    0.5
    """
    out = []
    for m in METRIC_NAMES:
        va = {t: v.get(m) for t, v in a.items()}
        vb = {t: v.get(m) for t, v in b.items()}
        common = [t for t in va if t in vb and va[t] is not None and vb[t] is not None]
        diff = paired_difference(va, vb, samples=samples, seed=seed)
        mean_a = sum(va[t] for t in common) / len(common) if common else None  # type: ignore[misc]
        mean_b = sum(vb[t] for t in common) / len(common) if common else None  # type: ignore[misc]
        out.append(MetricComparison(metric=m, mean_a=mean_a, mean_b=mean_b, difference=diff))
    return out
