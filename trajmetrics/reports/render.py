"""Render reports: a readable table, or machine-readable JSON / JSONL / CSV / Markdown.

JSONL and CSV are written task by task as results arrive (``StreamWriter``), so a large run never
has to sit in memory to be printed; JSON, table and Markdown need the summary and are written at the end.
"""

from __future__ import annotations

import csv
import io
import json
from typing import IO, Any, Literal

from ..metrics import METRIC_NAMES
from .models import Report, TaskResult

OutputFormat = Literal["table", "json", "jsonl", "csv", "md"]
STREAMING_FORMATS = ("jsonl", "csv")

_LABELS = {
    "recovery_rate": "recovery rate",
    "repetitiveness_rate": "repetitiveness rate",
    "step_success_rate": "step success rate",
    "step_success_rate_ordered": "step success (ordered)",
    "partial_success_rate": "partial success rate",
    "element_accuracy_rate": "element accuracy rate",
}
CSV_COLUMNS = ["task_id", "status", *METRIC_NAMES, "n_steps", "n_atoms", "n_gold", "incidents", "recoveries",
               "mean_recovery_cost", "repeats", "requirements_met", "requirements", "n_unsure", "message"]


def _fmt(v: float | None, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def task_row(t: TaskResult) -> dict[str, Any]:
    """One flat CSV row for a task."""
    row: dict[str, Any] = {"task_id": t.task_id, "status": t.status}
    for m in METRIC_NAMES:
        v = t.metric(m)
        row[m] = "" if v is None else round(v, 6)
    rec = t.recovery
    row.update(
        n_steps=t.n_steps, n_atoms=t.n_atoms, n_gold=t.n_gold,
        incidents="" if rec is None else rec.incidents,
        recoveries="" if rec is None else rec.recoveries,
        mean_recovery_cost="" if rec is None or rec.mean_cost is None else round(rec.mean_cost, 4),
        repeats=len(t.repeats),
        requirements_met=sum(r.met for r in t.requirements),
        requirements=len(t.requirements),
        n_unsure=t.n_unsure,
        message=t.message or "",
    )
    return row


class StreamWriter:
    """Writes tasks as they come for jsonl/csv; everything at ``finish`` for the other formats."""

    def __init__(self, out: IO[str], fmt: OutputFormat) -> None:
        self.out, self.fmt = out, fmt
        self._csv: csv.DictWriter | None = None
        if fmt == "csv":
            self._csv = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
            self._csv.writeheader()

    def task(self, t: TaskResult) -> None:
        if self.fmt == "jsonl":
            self.out.write(json.dumps({"type": "task", **t.model_dump(mode="json")}, ensure_ascii=False) + "\n")
            self.out.flush()
        elif self._csv is not None:
            self._csv.writerow(task_row(t))

    def finish(self, report: Report) -> None:
        if self.fmt == "jsonl":
            d = report.to_dict()
            d.pop("tasks")
            self.out.write(json.dumps({"type": "summary", **d}, ensure_ascii=False) + "\n")
        elif self.fmt == "csv":
            pass
        else:
            self.out.write(render(report, self.fmt))


def render(report: Report, fmt: OutputFormat) -> str:
    """The whole report as text in one format.

    >>> from trajmetrics.reports.models import Report
    >>> render(Report(summary={}, tasks=[], config={}), "json").startswith("{")
    True
    """
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "jsonl":
        buf = io.StringIO()
        w = StreamWriter(buf, "jsonl")
        for t in report.tasks:
            w.task(t)
        w.finish(report)
        return buf.getvalue()
    if fmt == "csv":
        buf = io.StringIO()
        w = StreamWriter(buf, "csv")
        for t in report.tasks:
            w.task(t)
        return buf.getvalue()
    if fmt == "md":
        return _markdown(report)
    return _table(report)


def _summary_rows(report: Report) -> list[list[str]]:
    rows = []
    for m in METRIC_NAMES:
        s = report.summary.get(m)
        if s is None:
            continue
        ci = "-" if s.ci95 is None else f"[{s.ci95[0]:.3f}, {s.ci95[1]:.3f}]"
        mean = "-" if s.mean is None else (f"{s.mean:.3f} ± {s.std:.3f}" if s.std is not None else f"{s.mean:.3f}")
        rows.append([_LABELS[m], mean, str(s.n), str(s.n_na), ci])
    return rows


def _footer(report: Report) -> list[str]:
    lines = []
    c = report.counts
    status = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k not in ("problems", "unsure", "gold_only"))
    lines.append(f"tasks: {status or 'none'}; UNSURE pairs: {c.get('unsure', 0)}; "
                 f"gold tasks with no run: {report.gold_only_count}")
    j = report.judge
    if j.kind != "none":
        lines.append(f"judge ({j.model}): {j.calls} calls, {j.cache_hits} cache hits, {j.tokens_in}/{j.tokens_out} "
                     f"tokens in/out, {j.errors} errors, {j.fallbacks} fallbacks to unsure_policy")
    notes = [f"task {t.task_id}: {t.status}: {t.message}" for t in report.tasks
             if t.status in ("aborted", "missing_gold", "error")]
    notes += [f"problem: {p.message}" for p in report.problems]
    lines.extend(notes[:_NOTES_LIMIT])
    if len(notes) > _NOTES_LIMIT:
        lines.append(f"... {len(notes) - _NOTES_LIMIT} more (all of them are in --format json)")
    return lines


_NOTES_LIMIT = 25


def _plain_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    out = [line(header), line(["-" * w for w in widths])]
    out.extend(line(r) for r in rows)
    return "\n".join(out)


_TASK_TABLE_LIMIT = 60


def _task_rows(report: Report) -> list[list[str]]:
    rows = []
    for t in report.tasks:
        if t.status != "scored":
            continue
        rows.append([t.task_id] + [_fmt(t.metric(m), 2) for m in METRIC_NAMES]
                    + [f"{len(t.matches)}/{t.n_gold}", str(t.n_steps)])
    return rows


_TASK_HEADER = ["task", "recovery", "repetit.", "step succ.", "ordered", "partial", "elem. acc.", "matched", "steps"]


def _table(report: Report) -> str:
    parts = [_plain_table(["metric", "mean ± std", "n", "n/a", "95% CI"], _summary_rows(report))]
    rows = _task_rows(report)
    if rows and len(rows) <= _TASK_TABLE_LIMIT:
        parts.append(_plain_table(_TASK_HEADER, rows))
    elif rows:
        parts.append(f"({len(rows)} tasks scored: use --format csv or json for per-task values)")
    parts.append("\n".join(_footer(report)))
    return "\n\n".join(p for p in parts if p) + "\n"


def _markdown(report: Report) -> str:
    def md(header: list[str], rows: list[list[str]]) -> str:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(out)

    parts = ["## Summary", md(["metric", "mean ± std", "n", "n/a", "95% CI"], _summary_rows(report))]
    rows = _task_rows(report)
    if rows:
        parts += ["## Tasks", md(_TASK_HEADER, rows)]
    foot = _footer(report)
    if foot:
        parts += ["## Notes", "\n".join(f"- {x}" for x in foot)]
    return "\n\n".join(parts) + "\n"
