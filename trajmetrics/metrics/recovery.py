"""Recovery rate (METRICS.md 3.1): does the agent get back onto the human path after deviating?"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

MatchFn = Callable[[int, int], bool]


@dataclass
class Incident:
    """One deviation: where it started, whether and where it ended."""

    start: int
    """Agent atom index where the deviation began (n_atoms for an unfinished end)."""
    gold: int
    """Gold step the agent was expected to fulfil when it deviated."""
    recovered: bool = False
    end: int | None = None
    """Agent atom index that rejoined the path."""
    rejoined_gold: int | None = None
    """Gold step it rejoined at."""
    cost: int | None = None
    """Agent atoms spent from the start to the recovery, inclusive."""
    kind: Literal["deviation", "unfinished"] = "deviation"


@dataclass
class RecoveryResult:
    rate: float | None
    incidents: int
    recoveries: int
    mean_cost: float | None
    first_deviation: int | None
    events: list[Incident] = field(default_factory=list)
    gold_fulfilled: int = 0


def recovery_walk(
    n_atoms: int,
    n_gold: int,
    match: MatchFn,
    *,
    lookahead: int = 5,
    unfinished: Literal["one", "each", "none"] = "one",
    zero_deviation: Literal["one", "skip"] = "one",
) -> RecoveryResult:
    """Walk the agent atoms against the gold path (METRICS.md 3.1) and count recoveries.

    ``match(i, j)`` says whether agent atom i fulfils gold step j; it is called only for the pairs the
    walk looks at, so a lazy judge is asked only what matters.

    >>> m = {(0, 0), (2, 1)}
    >>> r = recovery_walk(3, 2, lambda i, j: (i, j) in m, lookahead=0)
    >>> (r.incidents, r.recoveries, r.rate, r.mean_cost)
    (1, 1, 1.0, 2.0)
    """
    if n_gold == 0:
        return RecoveryResult(None, 0, 0, None, None)
    h = 0
    deviating: Incident | None = None
    events: list[Incident] = []
    for i in range(n_atoms):
        if h >= n_gold:
            break  # atoms after the last gold step is fulfilled are ignored
        if deviating is None:
            if match(i, h):
                h += 1
                continue
            incident = Incident(start=i, gold=h)
            events.append(incident)
            j = _first_match(match, i, h + 1, min(h + lookahead, n_gold - 1))
            if j is not None:  # skip-ahead: immediate recovery
                incident.recovered, incident.end, incident.rejoined_gold, incident.cost = True, i, j, 1
                h = j + 1
            else:
                deviating = incident
        else:
            j = _first_match(match, i, h, min(h + lookahead, n_gold - 1))
            if j is not None:
                deviating.recovered, deviating.end, deviating.rejoined_gold = True, i, j
                deviating.cost = i - deviating.start + 1
                deviating = None
                h = j + 1
    if h < n_gold and deviating is None:
        if unfinished == "one":
            events.append(Incident(start=n_atoms, gold=h, kind="unfinished"))
        elif unfinished == "each":
            events.extend(Incident(start=n_atoms, gold=g, kind="unfinished") for g in range(h, n_gold))
    incidents = len(events)
    recovered = [e for e in events if e.recovered]
    if incidents == 0:
        rate = 1.0 if zero_deviation == "one" else None
    else:
        rate = len(recovered) / incidents
    costs = [e.cost for e in recovered if e.cost is not None]
    first = next((e.start for e in events), None)
    return RecoveryResult(
        rate=rate,
        incidents=incidents,
        recoveries=len(recovered),
        mean_cost=(sum(costs) / len(costs)) if costs else None,
        first_deviation=first,
        events=events,
        gold_fulfilled=h,
    )


def _first_match(match: MatchFn, i: int, lo: int, hi: int) -> int | None:
    for j in range(lo, hi + 1):
        if match(i, j):
            return j
    return None
