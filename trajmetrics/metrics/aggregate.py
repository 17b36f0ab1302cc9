"""Aggregation over tasks (METRICS.md section 4): mean, sample std, n, n not applicable, bootstrap CI."""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
from pydantic import BaseModel


class MetricSummary(BaseModel):
    """One metric over the applicable tasks."""

    mean: float | None
    """Macro average over applicable tasks (None when none is applicable)."""
    std: float | None
    """Sample standard deviation (ddof=1); None with fewer than 2 tasks."""
    n: int
    """Tasks where the metric applies."""
    n_na: int
    """Tasks where it does not (None values): never counted as 0."""
    ci95: tuple[float, float] | None
    """Seeded percentile-bootstrap 95% interval of the mean."""


def summarise(values: Iterable[float | None], *, samples: int = 2000, seed: int = 0) -> MetricSummary:
    """Summarise per-task values. Invariant to task order (values are sorted before resampling).

    >>> s = summarise([1.0, 0.5, None, 0.0], samples=0)
    >>> (s.mean, s.n, s.n_na)
    (0.5, 3, 1)
    """
    vals = list(values)
    present = sorted(float(v) for v in vals if v is not None)
    n_na = len(vals) - len(present)
    if not present:
        return MetricSummary(mean=None, std=None, n=0, n_na=n_na, ci95=None)
    arr = np.asarray(present, dtype=np.float64)
    mean = float(arr.mean())
    std = float(arr.std(ddof=1)) if len(arr) > 1 else None
    ci = bootstrap_ci(arr, samples=samples, seed=seed)
    return MetricSummary(mean=mean, std=std, n=len(arr), n_na=n_na, ci95=ci)


def bootstrap_ci(
    values: Sequence[float] | np.ndarray, *, samples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean, reproducible for a given seed."""
    arr = np.sort(np.asarray(values, dtype=np.float64))
    if samples <= 0 or len(arr) == 0:
        return None
    if len(arr) == 1:
        return (float(arr[0]), float(arr[0]))
    rng = np.random.default_rng(seed)
    # Resample in chunks so memory stays bounded on large runs (samples x tasks indices at once would be
    # gigabytes at 100,000 tasks); the draws are the same as one big draw.
    chunk = max(1, min(samples, 1_000_000 // len(arr)))
    means = np.empty(samples)
    for start in range(0, samples, chunk):
        rows = min(chunk, samples - start)
        means[start:start + rows] = arr[rng.integers(0, len(arr), size=(rows, len(arr)))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, 1 - (1 - level) / 2])
    return (float(lo), float(hi))


class PairedDifference(BaseModel):
    """Run B minus run A on the tasks where both apply."""

    mean_diff: float | None
    n: int
    ci95: tuple[float, float] | None


def paired_difference(
    a: dict[str, float | None], b: dict[str, float | None], *, samples: int = 2000, seed: int = 0
) -> PairedDifference:
    """Mean of b - a over tasks present and applicable in both, with a paired bootstrap interval.

    >>> paired_difference({"1": 0.5, "2": 1.0}, {"1": 1.0, "2": 1.0}, samples=0).mean_diff
    0.25
    """
    common = sorted(k for k in a.keys() & b.keys() if a[k] is not None and b[k] is not None)
    if not common:
        return PairedDifference(mean_diff=None, n=0, ci95=None)
    diffs = np.asarray([b[k] - a[k] for k in common], dtype=np.float64)  # type: ignore[operator]
    return PairedDifference(
        mean_diff=float(diffs.mean()), n=len(diffs), ci95=bootstrap_ci(diffs, samples=samples, seed=seed)
    )
