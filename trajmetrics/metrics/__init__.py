"""The five per-task metrics as pure functions over match decisions, and their aggregation."""

from .aggregate import MetricSummary, PairedDifference, bootstrap_ci, paired_difference, summarise
from .element_accuracy import ElementAccuracyResult, element_accuracy
from .partial_success import partial_success_rate
from .recovery import Incident, RecoveryResult, recovery_walk
from .repetitiveness import repeated_steps, repetitiveness_rate
from .step_success import first_fit, greedy_matching, maximum_matching, ordered_matching, step_success_rate

METRIC_NAMES: tuple[str, ...] = (
    "recovery_rate",
    "repetitiveness_rate",
    "step_success_rate",
    "step_success_rate_ordered",
    "partial_success_rate",
    "element_accuracy_rate",
)
"""Every per-task metric a report carries, in report order."""

__all__ = [
    "METRIC_NAMES",
    "ElementAccuracyResult",
    "Incident",
    "MetricSummary",
    "PairedDifference",
    "RecoveryResult",
    "bootstrap_ci",
    "element_accuracy",
    "first_fit",
    "greedy_matching",
    "maximum_matching",
    "ordered_matching",
    "paired_difference",
    "partial_success_rate",
    "recovery_walk",
    "repeated_steps",
    "repetitiveness_rate",
    "step_success_rate",
    "summarise",
]
