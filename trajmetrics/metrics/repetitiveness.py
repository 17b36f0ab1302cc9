"""Repetitiveness rate (METRICS.md 3.2): 1 - r/n, r = steps that immediately repeat the previous one."""

from __future__ import annotations

from typing import Callable, Iterable, Sequence


def repeated_steps(
    kinds: Sequence[str], is_repeat: Callable[[int], bool], exempt: Iterable[str] = ()
) -> list[int]:
    """Indices i >= 1 whose step repeats step i-1 (``is_repeat(i)``), skipping exempt kinds.

    ``is_repeat`` is called only for non-exempt steps, so a judge is not asked about exempt ones.

    >>> seq = ["A", "B", "B", "C", "A"]
    >>> repeated_steps(["click"] * 5, lambda i: seq[i] == seq[i - 1])
    [2]
    """
    skip = set(exempt)
    return [i for i in range(1, len(kinds)) if kinds[i] not in skip and is_repeat(i)]


def repetitiveness_rate(n_steps: int, n_repeats: int) -> float | None:
    """1 - r/n over executed steps; None for an empty trajectory.

    >>> repetitiveness_rate(5, 1)
    0.8
    """
    if n_steps == 0:
        return None
    return 1.0 - n_repeats / n_steps
