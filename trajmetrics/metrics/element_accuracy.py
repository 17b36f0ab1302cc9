"""Element accuracy rate (METRICS.md 3.5): does the executed action equal the planned one?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass
class ElementAccuracyResult:
    rate: float | None
    considered: int
    """Steps before the first early stop."""
    equal: int
    """Considered steps whose plan equals the executed action."""
    no_plan: int
    """Considered steps with no recoverable plan (counted as mismatches, as the script does)."""
    early_stop_at: int | None
    """Index of the first early-stop step, when there is one."""


def element_accuracy(
    equal: Sequence[bool | None], early_stop: Sequence[bool] | None = None
) -> ElementAccuracyResult:
    """Rate over the steps before the first early stop. ``equal[i]`` is None when step i has no plan.

    A task with no plan at all (or no step considered) is not applicable (None).

    >>> element_accuracy([True, None, False, True], [False, False, False, True]).rate
    0.3333333333333333
    """
    stops = list(early_stop or [False] * len(equal))
    cut = next((i for i, s in enumerate(stops) if s), None)
    considered = list(equal[:cut] if cut is not None else equal)
    no_plan = sum(1 for e in considered if e is None)
    n_equal = sum(1 for e in considered if e is True)
    if not considered or no_plan == len(considered):
        rate = None
    else:
        rate = n_equal / len(considered)
    return ElementAccuracyResult(rate, len(considered), n_equal, no_plan, cut)
