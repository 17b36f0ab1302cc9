"""`trajmetrics gold`: convert the human gold to canonical JSONL, lint it (parse coverage and data defects)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..gold import DEFECT_KINDS, GoldSet, read_gold, write_gold_jsonl

_TASKS_HELP = "WebArena task configs (test.raw.json): adds intent, sites and requirements to each gold task."


@click.group(name="gold", context_settings={"help_option_names": ["-h", "--help"]})
def command() -> None:
    """Gold trajectories: convert the human xlsx/csv to canonical JSONL, lint gold files."""


@command.command(name="convert")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--tasks", "tasks_path", type=click.Path(exists=True), default=None, help=_TASKS_HELP)
@click.option("-o", "--output", required=True, metavar="FILE", help="Where to write the JSON lines ('-' for stdout).")
@click.option("--repeats", type=click.Choice(["keep", "drop"]), default="keep", show_default=True,
              help="Tasks recorded twice: keep both recordings, or only the first.")
def convert(path: str, tasks_path: str | None, output: str, repeats: str) -> None:
    """Read gold steps from PATH (.xlsx, .csv or .jsonl) and write one GoldTrajectory per line.

    \b
    Each step keeps its text and gets a parsed action; every data repair is kept in the task's
    `repairs`. A one-line summary goes to stderr; records that cannot be read are listed there and the
    exit code is 1, but every other task is still written.

    \b
    Example:
      trajmetrics gold convert "Golden Human Trajectories.xlsx" --tasks test.raw.json -o gold.jsonl
    """
    gold = read_gold(path, tasks_path, repeats=repeats)  # type: ignore[arg-type]
    if output == "-":
        for traj in gold.tasks.values():
            click.echo(json.dumps(traj.model_dump(mode="json"), ensure_ascii=False))
    else:
        write_gold_jsonl(gold, output)
    summary = gold.summary() + ("" if output == "-" else f" -> {output}")
    click.echo(summary, err=True)
    for problem in gold.problems:
        click.echo(f"  problem: {problem.message}", err=True)
    if gold.problems:
        sys.exit(1)


def lint_report(gold: GoldSet) -> dict[str, Any]:
    """The lint result as plain JSON data (what ``gold lint --format json`` prints)."""
    return {
        "source": gold.source,
        "format": gold.format,
        "tasks": len(gold.tasks),
        "steps": gold.n_steps(),
        "by_kind": gold.by_kind(),
        "unparsed": [
            {"task_id": tid, "index": i, "step_no": s.step_no, "text": s.text} for tid, i, s in gold.unparsed()
        ],
        "defect_counts": gold.defect_counts(),
        "defects": [d.model_dump(mode="json") for d in gold.defects],
        "problems": [p.message for p in gold.problems],
    }


@command.command(name="lint")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--tasks", "tasks_path", type=click.Path(exists=True), default=None, help=_TASKS_HELP)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table for people, json for tools.")
def lint(path: str, tasks_path: str | None, fmt: str) -> None:
    """Check a gold file: tasks, steps per action kind, unparsed steps, every data defect.

    \b
    Defects are reported, not fatal (exit 0); records that cannot be read give exit code 1.

    \b
    Example:
      trajmetrics gold lint "Golden Human Trajectories.xlsx" --tasks test.raw.json --format json
    """
    gold = read_gold(path, tasks_path)
    report = lint_report(gold)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print_table(report)
    if gold.problems:
        sys.exit(1)


def _print_table(report: dict[str, Any]) -> None:
    from rich.console import Console  # lazily: only the table output needs rich
    from rich.table import Table

    console = Console(soft_wrap=False)
    name = Path(report["source"] or "").name
    unparsed = report["unparsed"]
    n = report["steps"]
    share = f"{(n - len(unparsed)) / n:.2%}" if n else "n/a"
    console.print(f"[bold]{name}[/bold] ({report['format']}): {report['tasks']} tasks, {n} steps, "
                  f"{share} parsed", highlight=False)

    # section titles are printed as lines, not table titles: narrow tables would wrap them
    console.print("\n[bold]Steps per action kind[/bold]")
    kinds = Table()
    kinds.add_column("kind")
    kinds.add_column("steps", justify="right")
    for kind, count in report["by_kind"].items():
        if count:
            kinds.add_row(kind, str(count))
    console.print(kinds)

    if unparsed:
        console.print(f"\n[bold]Unparsed steps (kind other): {len(unparsed)}[/bold]")
        table = Table()
        table.add_column("task")
        table.add_column("step", justify="right")
        table.add_column("text", overflow="fold")
        for u in unparsed:
            table.add_row(u["task_id"], str(u["index"]), u["text"])
        console.print(table)

    counts = report["defect_counts"]
    if counts:
        console.print(f"\n[bold]Data defects: {len(report['defects'])}[/bold] ("
                      + ", ".join(f"{k} {v}" for k, v in counts.items()) + ")", highlight=False)
        table = Table()
        table.add_column("kind")
        table.add_column("task")
        table.add_column("where", overflow="fold")
        table.add_column("found", overflow="fold")
        table.add_column("done", overflow="fold")
        order = {k: i for i, k in enumerate(DEFECT_KINDS)}
        for d in sorted(report["defects"], key=lambda d: order.get(d["kind"], len(order))):
            table.add_row(d["kind"], d["task_id"] or "", d["record"] or "", d["message"], d["action"])
        console.print(table)
    else:
        console.print("No data defects.")
    for problem in report["problems"]:
        console.print(f"[red]problem[/red]: {problem}", highlight=False)
