"""`trajmetrics score`: score agent runs against gold trajectories."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, get_args

import click

from ..config import MetricConfig, PresetName, option_choices
from ..errors import ConfigError
from ..model import ACTION_KINDS
from ..reports.render import OutputFormat, STREAMING_FORMATS, StreamWriter
from .judge_options import judge_from_options, judge_options

# MetricConfig fields exposed as flags of the same name in kebab case (METRICS.md sections 3-5).
_CHOICE_OPTIONS = ("unfinished", "zero_deviation", "step_order", "step_matching", "unsure_policy", "plan_block")


def metric_options(f):
    """Add one flag per MetricConfig option (shared by `score` and `agreement`)."""
    f = click.option("--seed", type=int, default=None, help="Bootstrap seed (default 0).")(f)
    f = click.option("--bootstrap-samples", type=click.IntRange(min=0), default=None,
                     help="Bootstrap resamples for the 95% interval (default 2000; 0 disables).")(f)
    f = click.option("--include-aborted/--exclude-aborted", default=None,
                     help="Score trajectories killed by an environment error (excluded by default).")(f)
    f = click.option("--repeat-exempt", multiple=True, type=click.Choice(ACTION_KINDS), metavar="KIND",
                     help="Action kind whose immediate repeats are not counted (repeatable), e.g. scroll.")(f)
    for name in reversed(_CHOICE_OPTIONS):
        help_text = MetricConfig.model_fields[name].description or ""
        f = click.option(f"--{name.replace('_', '-')}", name, type=click.Choice(option_choices(name)),
                         default=None, help=help_text)(f)
    f = click.option("--lookahead", type=click.IntRange(min=0), default=None,
                     help="Recovery: gold steps ahead a deviating agent may rejoin (default 5; 0 = the script).")(f)
    f = click.option("--preset", type=click.Choice(get_args(PresetName)), default="default", show_default=True,
                     help="Start from these options: `reference` reproduces the paper script's counting.")(f)
    return f


def config_from_options(opts: dict[str, Any]) -> MetricConfig:
    """Build a MetricConfig from the CLI flags (popping them from ``opts``)."""
    preset = opts.pop("preset")
    overrides = {k: opts.pop(k) for k in ("lookahead", *_CHOICE_OPTIONS, "include_aborted", "bootstrap_samples", "seed")}
    exempt = opts.pop("repeat_exempt")
    if exempt:
        overrides["repeat_exempt"] = exempt
    try:
        return MetricConfig.from_preset(preset, **overrides)
    except ConfigError as exc:
        raise click.BadParameter(str(exc)) from None


def input_options(f):
    """Options that say how to read the inputs (shared by `score` and `agreement`)."""
    f = click.option("--task-id", "task_ids", multiple=True, metavar="ID",
                     help="Score only these task ids (repeatable, or comma-separated).")(f)
    f = click.option("--tool-map", type=click.Path(exists=True, dir_okay=False), default=None,
                     help="JSON file mapping tool names to action kinds, for tool-calling agents.")(f)
    f = click.option("--agent-format", default=None, metavar="FORMAT",
                     help="Force the agent run format instead of detecting it.")(f)
    f = click.option("--tasks", "tasks_path", type=click.Path(exists=True, dir_okay=False), default=None,
                     help="WebArena task configs (test.raw.json): intents and requirements.")(f)
    f = click.option("--gold-repeats", type=click.Choice(["keep", "drop"]), default="keep", show_default=True,
                     help="Gold tasks recorded twice in the spreadsheet: keep both recordings, or score the first.")(f)
    f = click.option("--gold", "gold_path", required=True, type=click.Path(exists=True),
                     help="Gold trajectories: human gold .xlsx/.csv or canonical .jsonl.")(f)
    return f


def split_ids(values: tuple[str, ...]) -> list[str] | None:
    ids = [v.strip() for item in values for v in item.split(",") if v.strip()]
    return ids or None


@click.command(name="score")
@click.argument("agent_paths", nargs=-1, required=True, type=click.Path(exists=True))
@input_options
@metric_options
@judge_options
@click.option("--format", "fmt", type=click.Choice(get_args(OutputFormat)), default="table", show_default=True,
              help="Output format. json/jsonl/csv are machine-readable.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, allow_dash=True), default="-",
              help="Write the report here instead of stdout.")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: only on a terminal).")
def command(agent_paths: tuple[str, ...], fmt: str, output: str, progress: bool | None, **opts: Any) -> None:
    """Score AGENT_PATH... (run folders or files) against --gold.

    \b
    Examples:
      trajmetrics score examples/agent_run.jsonl --gold examples/gold.jsonl
      trajmetrics score results/ --gold gold.xlsx --tasks test.raw.json --format json -o report.json
      trajmetrics score results/ --gold gold.xlsx --preset reference --lookahead 3
    """
    from ..scoring import RunState, iter_task_results

    config = config_from_options(opts)
    judge = judge_from_options(opts)
    gold_path, tasks_path = opts.pop("gold_path"), opts.pop("tasks_path")
    state = RunState.start(config, judge)
    out = sys.stdout if output == "-" else open(output, "w", encoding="utf-8", newline="")
    try:
        writer = StreamWriter(out, fmt)  # type: ignore[arg-type]
        results = iter_task_results(
            [Path(p) for p in agent_paths], gold_path, config, judge=judge, tasks=split_ids(opts.pop("task_ids")),
            tasks_path=tasks_path, agent_format=opts.pop("agent_format"), tool_map=opts.pop("tool_map"),
            gold_repeats=opts.pop("gold_repeats"), state=state,
        )
        kept = []
        show = sys.stderr.isatty() if progress is None else progress
        for result in _with_progress(results, show):
            if fmt in STREAMING_FORMATS:
                # Written now; only tasks that were not scored are kept, for the closing messages.
                writer.task(result)
                if result.status != "scored":
                    kept.append(result)
            else:
                kept.append(result)
        report = state.report(kept, judge)
        writer.finish(report)
    finally:
        if out is not sys.stdout:
            out.close()
    # A read problem of a known task is also that task's `error` result: say it once.
    messages = [p.message for p in report.problems]
    reported = {p.task_id for p in report.problems if p.task_id is not None}
    messages += [f"task {t.task_id}: {t.message}" for t in report.tasks
                 if t.status == "error" and t.task_id not in reported]
    if messages:
        for m in messages:
            click.echo(f"error: {m}", err=True)
        scored = report.counts.get("scored", 0)
        click.echo(f"{len(messages)} input problem(s); {scored} task(s) scored", err=True)
        sys.exit(1)


def _with_progress(results, show: bool):
    if not show:
        yield from results
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TextColumn("{task.completed} tasks"),
                  TimeElapsedColumn(), console=_stderr_console(), transient=True) as bar:
        tid = bar.add_task("scoring", total=None)
        for r in results:
            bar.update(tid, advance=1, description=f"scoring task {r.task_id}")
            yield r


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)
