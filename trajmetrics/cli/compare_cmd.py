"""`trajmetrics compare A.json B.json`: paired comparison of two runs on the same tasks."""

from __future__ import annotations

import json

import click


@click.command(name="compare")
@click.argument("report_a", type=click.Path(exists=True, dir_okay=False))
@click.argument("report_b", type=click.Path(exists=True, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--bootstrap-samples", type=click.IntRange(min=0), default=2000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
def command(report_a: str, report_b: str, fmt: str, bootstrap_samples: int, seed: int) -> None:
    """Compare two reports of `trajmetrics score --format json|jsonl` task by task (B minus A).

    Only tasks both runs scored, and where the metric applies to both, are paired.

    \b
    Example:
      trajmetrics score run_a/ --gold gold.jsonl --format json -o a.json
      trajmetrics score run_b/ --gold gold.jsonl --format json -o b.json
      trajmetrics compare a.json b.json
    """
    from ..reports.compare import compare_runs, load_task_values

    rows = compare_runs(load_task_values(report_a), load_task_values(report_b), samples=bootstrap_samples, seed=seed)
    if fmt == "json":
        click.echo(json.dumps([r.model_dump(mode="json") for r in rows], indent=2))
        return
    f = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    click.echo(f"{'metric':<27}{'A':>7}{'B':>7}{'B - A':>8}  {'95% CI':<18}{'n':>4}")
    for r in rows:
        d = r.difference
        ci = "-" if d.ci95 is None else f"[{d.ci95[0]:+.3f}, {d.ci95[1]:+.3f}]"
        diff = "-" if d.mean_diff is None else f"{d.mean_diff:+.3f}"
        click.echo(f"{r.metric:<27}{f(r.mean_a):>7}{f(r.mean_b):>7}{diff:>8}  {ci:<18}{d.n:>4}")
