"""Partial success rate (METRICS.md 3.4): share of requirements the final answer states."""

from __future__ import annotations

from typing import Sequence


def partial_success_rate(met: Sequence[bool]) -> float | None:
    """completed / total for tasks with at least 2 requirements; None (not applicable) otherwise.

    >>> partial_success_rate([True, False, True, True])
    0.75
    >>> partial_success_rate([True]) is None
    True
    """
    if len(met) < 2:
        return None
    return sum(bool(m) for m in met) / len(met)
