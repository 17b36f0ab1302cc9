"""Step success rate (METRICS.md 3.3): the share of gold steps matched one-to-one by agent atoms."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

Pairs = list[tuple[int, int]]
"""Matched pairs as (gold index, agent atom index), sorted by gold index."""


def ordered_matching(match: np.ndarray, weight: np.ndarray | None = None) -> Pairs:
    """Largest matching whose pairs increase in both sequences (a longest common subsequence).

    ``match`` has shape (n_atoms, n_gold). Ties are broken by the larger total ``weight`` (rule
    scores), then by the earliest agent atom, so the reported pairs are the most plausible ones.

    >>> m = np.array([[0, 1], [1, 0]], dtype=bool)
    >>> len(ordered_matching(m))
    1
    """
    n_a, n_g = match.shape
    w = weight if weight is not None else np.zeros(match.shape)
    # best[i][j] = (count, weight) of the best LCS of atoms[i:] and gold[j:]
    cnt = np.zeros((n_a + 1, n_g + 1), dtype=np.int64)
    wt = np.zeros((n_a + 1, n_g + 1), dtype=np.float64)
    for i in range(n_a - 1, -1, -1):
        row_m = match[i]
        for j in range(n_g - 1, -1, -1):
            c, s = cnt[i + 1, j], wt[i + 1, j]
            c2, s2 = cnt[i, j + 1], wt[i, j + 1]
            if (c2, s2) > (c, s):
                c, s = c2, s2
            if row_m[j]:
                c3, s3 = cnt[i + 1, j + 1] + 1, wt[i + 1, j + 1] + w[i, j]
                if (c3, s3) >= (c, s):
                    c, s = c3, s3
            cnt[i, j], wt[i, j] = c, s
    pairs: Pairs = []
    i = j = 0
    while i < n_a and j < n_g:
        if match[i, j] and (cnt[i, j], wt[i, j]) == (cnt[i + 1, j + 1] + 1, wt[i + 1, j + 1] + w[i, j]):
            pairs.append((j, i))
            i += 1
            j += 1
        elif (cnt[i, j], wt[i, j]) == (cnt[i + 1, j], wt[i + 1, j]):
            i += 1
        else:
            j += 1
    return pairs


def maximum_matching(match: np.ndarray, weight: np.ndarray | None = None) -> Pairs:
    """A maximum one-to-one matching between gold steps and agent atoms (order ignored).

    Starts from the ordered matching and grows it with augmenting paths (Kuhn's algorithm), which
    keeps every already-matched step matched, so the result is maximum and as order-consistent as
    the decisions allow.

    >>> m = np.array([[1, 1], [1, 0]], dtype=bool)   # greedy first-fit would find only 1 pair
    >>> sorted(maximum_matching(m))
    [(0, 1), (1, 0)]
    """
    n_a, n_g = match.shape
    gold_of_atom = [-1] * n_a
    atom_of_gold = [-1] * n_g
    for g, a in ordered_matching(match, weight):
        gold_of_atom[a], atom_of_gold[g] = g, a
    # Augmenting paths try the best-scored atoms first (then the earliest), like the ordered pass.
    adj = []
    for g in range(n_g):
        atoms = np.flatnonzero(match[:, g]).tolist()
        if weight is not None:
            atoms.sort(key=lambda a: (-weight[a, g], a))
        adj.append(atoms)

    def augment(g: int, seen: set[int]) -> bool:
        for a in adj[g]:
            if a in seen:
                continue
            seen.add(a)
            if gold_of_atom[a] == -1 or augment(gold_of_atom[a], seen):
                gold_of_atom[a], atom_of_gold[g] = g, a
                return True
        return False

    for g in range(n_g):
        if atom_of_gold[g] == -1 and adj[g]:
            augment(g, set())
    return sorted((g, a) for g, a in enumerate(atom_of_gold) if a != -1)


def greedy_matching(match: np.ndarray, *, ordered: bool = False) -> Pairs:
    """The script's first-fit: each gold step in order takes the first unused agent atom that matches.

    With ``ordered`` the atom must also come after the previously matched one. Unlike the maximum
    matching, its size is not monotone in the set of matching pairs.
    """
    n_a, n_g = match.shape
    return first_fit(n_a, n_g, lambda a, g: bool(match[a, g]), ordered=ordered)


def first_fit(n_atoms: int, n_gold: int, match: Callable[[int, int], bool], *, ordered: bool = False) -> Pairs:
    """Greedy first-fit over a match function, called only for the pairs first-fit looks at."""
    used = [False] * n_atoms
    pairs: Pairs = []
    last = -1
    for g in range(n_gold):
        for a in range(last + 1 if ordered else 0, n_atoms):
            if not used[a] and match(a, g):
                used[a] = True
                pairs.append((g, a))
                last = a
                break
    return pairs


def step_success_rate(pairs: Sequence[tuple[int, int]], n_gold: int) -> float | None:
    """|M| / |G|; None for an empty gold path."""
    return None if n_gold == 0 else len(pairs) / n_gold
