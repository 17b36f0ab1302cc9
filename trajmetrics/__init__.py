"""trajmetrics: process metrics for web-agent runs against human gold paths.

Example::

    import trajmetrics
    report = trajmetrics.score("examples/agent_run.jsonl", "examples/gold.jsonl")
    report.summary["recovery_rate"].mean
"""

__version__ = "0.1.0"

# The public API, imported on first use (PEP 562) so that `trajmetrics --help` does not pay for numpy,
# rapidfuzz and the readers.
_LAZY = {
    "ACTION_KINDS": ".model",
    "Action": ".model",
    "AgentStep": ".model",
    "AgentTrajectory": ".model",
    "ConfigError": ".errors",
    "Decision": ".matching.decision",
    "GoldStep": ".model",
    "GoldTrajectory": ".model",
    "InputError": ".errors",
    "JudgeAnswer": ".matching.decision",
    "JudgeQuestion": ".matching.decision",
    "METRIC_NAMES": ".metrics",
    "MetricConfig": ".config",
    "MetricSummary": ".metrics",
    "ReadProblem": ".model",
    "Report": ".reports.models",
    "Target": ".model",
    "TaskResult": ".reports.models",
    "TrajmetricsError": ".errors",
    "element_accuracy": ".metrics",
    "expand_atoms": ".model",
    "iter_task_results": ".scoring",
    "match_repeat": ".matching.rules",
    "match_requirement": ".matching.rules",
    "match_step": ".matching.rules",
    "maximum_matching": ".metrics",
    "ordered_matching": ".metrics",
    "paired_difference": ".metrics",
    "partial_success_rate": ".metrics",
    "recovery_walk": ".metrics",
    "repetitiveness_rate": ".metrics",
    "same_action": ".matching.rules",
    "score": ".scoring",
    "score_task": ".scoring",
    "summarise": ".metrics",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'trajmetrics' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "ACTION_KINDS",
    "METRIC_NAMES",
    "Action",
    "AgentStep",
    "AgentTrajectory",
    "ConfigError",
    "Decision",
    "GoldStep",
    "GoldTrajectory",
    "InputError",
    "JudgeAnswer",
    "JudgeQuestion",
    "MetricConfig",
    "MetricSummary",
    "ReadProblem",
    "Report",
    "Target",
    "TaskResult",
    "TrajmetricsError",
    "__version__",
    "element_accuracy",
    "expand_atoms",
    "iter_task_results",
    "match_repeat",
    "match_requirement",
    "match_step",
    "maximum_matching",
    "ordered_matching",
    "paired_difference",
    "partial_success_rate",
    "recovery_walk",
    "repetitiveness_rate",
    "same_action",
    "score",
    "score_task",
    "summarise",
]
