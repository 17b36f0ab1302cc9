"""Checks on blocks of gold rows that need the parsed steps and the task configs.

A *block* is a run of consecutive rows with the same task id. The human spreadsheet has tasks in two
blocks; some second blocks are a second recording of the same task, some belong to another task.
Neither is moved or dropped (that would be a guess); both are reported with their evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..model import GoldStep
from ._models import GoldDefect

# Words that only occur on one WebArena site. A block is suspect when it hits another site's words at
# least `_MIN_HITS` times and none of its own task's sites' words: strong evidence, no false alarms on
# the human gold (it flags tasks 248, 313 and 538 there).
_SITE_WORDS: dict[str, tuple[str, ...]] = {
    "gitlab": (
        r"gitlab", r"repositor", r"merge request", r"\bcommits?\b", r"milestone", r"contributors", r"new file",
        r"byte ?blaze", r"a11y", r"username or email", r"project name", r"group name", r"\bfork", r"\bbranch",
        r"new project", r"\bmembers\b", r"\bissues?\b",
    ),
    "reddit": (
        r"reddit", r"\bforums?\b", r"alphabetical", r"subscribe", r"upvote", r"downvote", r"\bpost\b",
        r"\bsubmissions?\b", r"\breply\b",
    ),
    "map": (
        r"openstreetmap", r"direction", r"osrm", r"'from' textbox", r"'to' textbox", r"'go' button",
        r"\bho[vb]er over\b", r"car \(", r"foot \(", r"bicycle",
    ),
    "shopping": (
        r"add to cart", r"my account", r"my orders", r"my cart", r"wish ?list", r"search entire store",
        r"shopping options", r"contact us", r"what.s on your mind", r"sort by", r"\breviews \(", r"menu item",
    ),
    "shopping_admin": (
        r"\bsales\b", r"\bcatalog\b", r"marketing", r"\breports\b", r"all reviews", r"by customers",
        r"bestsellers", r"search by keyword", r"apply filters", r"cart price rules", r"show report",
        r"dashboard", r"\bfilters\b", r"pending reviews", r"\bstores\b", r"all customers",
    ),
    "wikipedia": (r"wikipedia", r"wilipedia"),
}
_SITE_RES = {site: [re.compile(p, re.I) for p in pats] for site, pats in _SITE_WORDS.items()}
_MIN_HITS = 2
# A later block repeating this share of an earlier block's steps is a second recording.
_REPEAT_SHARE = 0.6


@dataclass
class Block:
    """Consecutive rows of one task in a table file."""

    task_id: str
    first_row: int
    last_row: int
    label: str
    """``rows 2553-2595`` / ``lines 3-9``."""
    steps: list[GoldStep] = field(default_factory=list)


def site_hits(texts: list[str]) -> dict[str, list[str]]:
    """Per site, the site-specific words found in the texts (one entry per step and word).

    >>> site_hits(["Click on the 'SALES' link", "Type 'design' in the 'Search Gitlab' textbox"])
    {'gitlab': ['gitlab'], 'shopping_admin': ['sales']}
    """
    hits: dict[str, list[str]] = {}
    for text in texts:
        for site, res in _SITE_RES.items():
            for rx in res:
                m = rx.search(text or "")
                if m:
                    hits.setdefault(site, []).append(m.group(0).lower())
    return dict(sorted(hits.items()))


def suspect_blocks(blocks: list[Block], sites: list[str], n_blocks: int) -> list[GoldDefect]:
    """Blocks whose wording belongs to a site the task does not use."""
    if not sites:
        return []
    out = []
    for b in blocks:
        hits = site_hits([s.text for s in b.steps])
        own = sum(len(hits.get(s, [])) for s in sites)
        others = {s: h for s, h in hits.items() if s not in sites and len(h) >= _MIN_HITS}
        if own or not others:
            continue
        site = max(others, key=lambda s: len(others[s]))
        where = "this task's only block" if n_blocks == 1 else f"block {blocks.index(b) + 1} of {n_blocks}"
        out.append(GoldDefect(
            kind="suspect_block",
            task_id=b.task_id,
            record=b.label,
            message=(f"{where} ({b.label}, {len(b.steps)} steps) reads like {'/'.join(sorted(others))} "
                     f"({', '.join(sorted(set(others[site])))}) but the task's sites are {', '.join(sites)}: "
                     f"probably another task's steps"),
            action="kept the steps under this task id (not moved: that would be a guess)",
            evidence={"rows": [b.first_row, b.last_row], "site_hits": others, "task_sites": list(sites),
                      "first_step": b.steps[0].text if b.steps else None},
        ))
    return out


def _signature_match(a: GoldStep, b: GoldStep) -> bool:
    x, y = a.action, b.action
    if x.kind != y.kind:
        return False
    names = (x.target.name or "", y.target.name or "")
    values = (x.value or "", y.value or "")
    for p, q in (names, values):
        if bool(p) != bool(q):
            return False
        if p and fuzz.token_set_ratio(p.lower(), q.lower()) < 90:
            return False
    return True


def repeated_blocks(blocks: list[Block]) -> list[GoldDefect]:
    """Later blocks that repeat most of an earlier block: a second recording of the same task."""
    out = []
    for i, b in enumerate(blocks[1:], start=1):
        for a in blocks[:i]:
            if not b.steps or not a.steps:
                continue
            shared = sum(1 for s in b.steps if any(_signature_match(s, t) for t in a.steps))
            share = shared / len(b.steps)
            if share >= _REPEAT_SHARE:
                out.append(GoldDefect(
                    kind="repeated_block",
                    task_id=b.task_id,
                    record=b.label,
                    message=(f"{b.label} repeats {shared} of its {len(b.steps)} step{'s' if len(b.steps) != 1 else ''} from {a.label}: "
                             f"probably a second recording of the same task"),
                    action="kept both blocks, concatenated in file order",
                    evidence={"rows": [b.first_row, b.last_row], "repeats_rows": [a.first_row, a.last_row],
                              "shared_steps": shared, "share": round(share, 3)},
                ))
                break
    return out
