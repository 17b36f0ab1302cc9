"""`trajmetrics agreement`: how far the step matcher agrees with human alignment labels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from .judge_options import judge_from_options, judge_options
from .score_cmd import config_from_options, input_options, metric_options, split_ids


@click.command(name="agreement")
@click.argument("agent_paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--labels", "labels_path", required=True, type=click.Path(exists=True, dir_okay=False),
              help="Alignment labels JSONL (format of labels/dev_alignment.jsonl).")
@input_options
@metric_options
@judge_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--max-disagreements", type=click.IntRange(min=0), default=40, show_default=True,
              help="How many disagreements the table lists (json lists all).")
def command(agent_paths: tuple[str, ...], labels_path: str, fmt: str, max_disagreements: int, **opts: Any) -> None:
    """Compare the engine's matched pairs and metrics with labelled pairs.

    Reports pair precision, recall, F1 and Cohen's kappa, the mean absolute error of per-task step
    success, recovery, repetitiveness and partial success against the values the labels imply, the
    UNSURE pairs and how they were resolved, and every disagreement with its evidence.

    \b
    Example:
      trajmetrics agreement results/ --gold gold.xlsx --tasks test.raw.json --labels dev_alignment.jsonl
    """
    from ..matching.agreement import agreement

    config = config_from_options(opts)
    judge = judge_from_options(opts)
    report = agreement(
        [Path(p) for p in agent_paths], opts.pop("gold_path"), labels_path, config, judge=judge,
        tasks=split_ids(opts.pop("task_ids")), tasks_path=opts.pop("tasks_path"), agent_format=opts.pop("agent_format"),
        gold_repeats=opts.pop("gold_repeats"),
    )
    if fmt == "json":
        click.echo(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    click.echo(_table(report, max_disagreements))


def _f(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def _table(r, limit: int) -> str:
    p, s = r.pairs, r.pairs_sure_only
    lines = [
        f"labelled tasks scored: {r.tasks}" + (f"  (not scored: {', '.join(r.missing)})" if r.missing else ""),
        "",
        "pairs        precision  recall     f1  kappa    tp   fp   fn",
        f"all          {_f(p.precision):>9}  {_f(p.recall):>6}  {_f(p.f1):>5}  {_f(p.kappa):>5}  "
        f"{p.true_positive:>4} {p.false_positive:>4} {p.false_negative:>4}",
        f"sure only    {_f(s.precision):>9}  {_f(s.recall):>6}  {_f(s.f1):>5}  {_f(s.kappa):>5}  "
        f"{s.true_positive:>4} {s.false_positive:>4} {s.false_negative:>4}",
        "",
        "mean absolute error vs labels: "
        f"step success {_f(r.step_success_mae)}, recovery {_f(r.recovery_mae)}, "
        f"repetitiveness {_f(r.repetitiveness_mae)}, partial success {_f(r.partial_success_mae)}",
        f"repeated steps: precision {_f(r.repeats.precision)}, recall {_f(r.repeats.recall)}, f1 {_f(r.repeats.f1)} "
        f"(tp {r.repeats.true_positive}, fp {r.repeats.false_positive}, fn {r.repeats.false_negative})",
        f"requirements: {r.requirements.agree}/{r.requirements.compared} verdicts agree"
        + (f" ({_f(r.requirements.accuracy)})" if r.requirements.accuracy is not None else ""),
        "UNSURE step pairs: " + ", ".join(f"{k} {v}" for k, v in r.unsure.items()),
    ]
    for d in r.requirements.disagreements[:limit]:
        lines.append(f"  task {d['task_id']} requirement {d['requirement'][:60]!r}: labels "
                     f"{'met' if d['label_met'] else 'not met'}, engine {'met' if d['engine_met'] else 'not met'} ({d['rule']})")
    if r.judge:
        lines.append("judge: " + ", ".join(f"{k} {v}" for k, v in r.judge.items() if not isinstance(v, dict)))
    if r.disagreements:
        lines += ["", f"disagreements ({len(r.disagreements)}):"]
        for d in r.disagreements[:limit]:
            sure = "" if d.label_sure in (None, True) else " [label unsure]"
            lines.append(f"  task {d.task_id} {d.kind:<6} g{d.gold_index} {d.gold_text!r}")
            lines.append(f"      a{d.agent_index} {d.agent_action}  -> {d.decision} {d.rule} "
                         f"score={_f(d.score)} ({d.resolved_by}){sure}")
        if len(r.disagreements) > limit:
            lines.append(f"  ... {len(r.disagreements) - limit} more (use --format json)")
    return "\n".join(lines)
