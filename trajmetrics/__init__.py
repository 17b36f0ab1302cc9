"""trajmetrics: process metrics for web-agent runs against human gold paths.

>>> import trajmetrics
>>> report = trajmetrics.score("examples/agent_run.jsonl", "examples/gold.jsonl")  # doctest: +SKIP
>>> report.summary["recovery_rate"].mean                                           # doctest: +SKIP
"""

__version__ = "0.1.0"

from .config import MetricConfig
from .errors import ConfigError, InputError, TrajmetricsError
from .matching.decision import Decision, JudgeAnswer, JudgeQuestion
from .matching.rules import match_repeat, match_requirement, match_step, same_action
from .metrics import (
    METRIC_NAMES,
    MetricSummary,
    element_accuracy,
    maximum_matching,
    ordered_matching,
    paired_difference,
    partial_success_rate,
    recovery_walk,
    repetitiveness_rate,
    summarise,
)
from .model import (
    ACTION_KINDS,
    Action,
    AgentStep,
    AgentTrajectory,
    GoldStep,
    GoldTrajectory,
    ReadProblem,
    Target,
    expand_atoms,
)
from .reports.models import Report, TaskResult
from .scoring import iter_task_results, score, score_task

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
