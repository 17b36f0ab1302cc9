"""`trajmetrics schema agent|gold|report|config`: JSON Schema of the canonical formats."""

from __future__ import annotations

import json

import click

_MODELS = {
    "agent": ("trajmetrics.model", "AgentTrajectory", "one agent trajectory per line of a canonical run .jsonl"),
    "gold": ("trajmetrics.model", "GoldTrajectory", "one gold task per line of a canonical gold .jsonl"),
    "report": ("trajmetrics.reports.models", "Report", "the object `trajmetrics score --format json` prints"),
    "config": ("trajmetrics.config", "MetricConfig", "the metric options"),
}


@click.command(name="schema")
@click.argument("which", type=click.Choice(sorted(_MODELS)))
def command(which: str) -> None:
    """Print the JSON Schema of a canonical format (agent, gold, report, config)."""
    import importlib

    module, name, what = _MODELS[which]
    model = getattr(importlib.import_module(module), name)
    schema = model.model_json_schema()
    schema.setdefault("description", what)
    click.echo(json.dumps(schema, indent=2))
