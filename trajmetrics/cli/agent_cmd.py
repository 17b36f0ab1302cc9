"""`trajmetrics agent`: convert agent runs to the canonical JSON lines, list the formats."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import get_args

import click

from ..config import PlanBlock
from ..formats import AGENT_FORMATS, read_agent_runs, write_agent_jsonl
from ..model import AgentTrajectory, ReadProblem

_FORMAT_HELP = {
    "browsergym": "BrowserGym/AgentLab folder: task_<id>/steps_info_<n>.json + summary_info.json",
    "webarena_render": "WebArena render_<id>.html (file or folder), config_<id>.json beside it",
    "reference_sheet": "xlsx/csv with Task No, Step No, Text, Next Step (the reference script's layout)",
    "mind2web": "Online-Mind2Web result.json folders (action_history, thoughts, final_result_response)",
    "fara": "microsoft/fara webeval: web_surfer.log + *_final_answer.json",
    "computer_use": "JSONL of OpenAI computer_call items / Anthropic computer tool inputs",
    "tool_calls": "OpenAI chat messages with tool_calls, or SFT rows (session_id, turn_index, role, response)",
    "canonical": "JSONL, one AgentTrajectory per line (what `agent convert` writes)",
}


@click.group(name="agent")
def command() -> None:
    """Agent runs: convert them to the canonical format, list the formats read."""


@command.command(name="convert")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--agent-format", type=click.Choice(AGENT_FORMATS), default=None,
              help="Force this format instead of detecting it per path.")
@click.option("--tool-map", type=click.Path(exists=True, dir_okay=False), default=None,
              help='JSON {tool_name: kind} (or {tool_name: {"kind": ..., "value": ARG, "id": ARG}}) for tool-calling agents.')
@click.option("--plan-block", type=click.Choice(get_args(PlanBlock)), default="last", show_default=True,
              help="WebArena: which triple-backtick block of the model text is the planned action.")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="Where to write the canonical JSON lines ('-' for stdout).")
def convert(paths: tuple[str, ...], agent_format: str | None, tool_map: str | None, plan_block: str, output: str) -> None:
    """Read agent runs and write one AgentTrajectory per line.

    \b
    A summary (tasks, steps, problems) goes to stderr. Tasks that cannot be read are listed there and
    the exit code is 1, but every other task is still written.

    \b
    Example:
      trajmetrics agent convert results/ -o run.jsonl
    """
    stream = read_agent_runs(list(paths), agent_format, tool_map=tool_map, plan_block=plan_block)  # type: ignore[arg-type]
    counts = {"tasks": 0, "steps": 0, "aborted": 0}
    problems: list[ReadProblem] = []

    def tally():
        for item in stream:
            if isinstance(item, ReadProblem):
                problems.append(item)
                continue
            assert isinstance(item, AgentTrajectory)
            counts["tasks"] += 1
            counts["steps"] += len(item.steps)
            counts["aborted"] += item.aborted
            yield item

    if output == "-":
        write_agent_jsonl(tally(), sys.stdout)
    else:
        write_agent_jsonl(tally(), Path(output))
    summary = f"{counts['tasks']} tasks, {counts['steps']} steps, {len(problems)} problems"
    if counts["aborted"]:
        summary += f", {counts['aborted']} aborted"
    if output != "-":
        summary += f" -> {output}"
    click.echo(summary, err=True)
    for problem in problems:
        click.echo(f"  problem: {problem.message}", err=True)
    if problems:
        sys.exit(1)


@command.command(name="formats")
def formats() -> None:
    """List the agent-run formats and what each reads."""
    width = max(len(f) for f in AGENT_FORMATS)
    for fmt in AGENT_FORMATS:
        click.echo(f"{fmt:<{width}}  {_FORMAT_HELP.get(fmt, '')}")
