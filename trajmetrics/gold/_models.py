"""Result types of the gold readers: the gold set, its data defects, and WebArena task configs."""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from ..model import ACTION_KINDS, GoldStep, GoldTrajectory, ReadProblem

DefectKind = Literal[
    "empty_task_id",
    "bad_step_no",
    "split_task",
    "misnumbered",
    "suspect_block",
    "repeated_block",
    "empty_text",
    "odd_task_id",
    "header_row",
    "blank_rows",
    "encoding",
    "duplicate_task",
    "no_config",
    "no_gold",
    "recorded_repair",
]
#: Every defect kind, in the order a report lists them.
DEFECT_KINDS: tuple[str, ...] = get_args(DefectKind)

GoldFormat = Literal["xlsx", "csv", "jsonl"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GoldDefect(_Model):
    """A defect in the gold data and what the reader did about it. Never silent, never fatal.

    >>> GoldDefect(kind="bad_step_no", task_id="96", record="row 523", message="Step No. is 'Pink'",
    ...            action="kept the row in file order").kind
    'bad_step_no'
    """

    kind: DefectKind
    """What is wrong (one of DEFECT_KINDS)."""
    message: str
    """What was found, for a human."""
    action: str
    """What the reader did about it (``continued task 751 from the row above``, ``kept file order``)."""
    task_id: str | None = None
    """The task it concerns; None for file-level defects."""
    record: str | None = None
    """Where in the file: ``row 2964``, ``rows 2553-2595``, ``line 3``."""
    evidence: dict[str, Any] = Field(default_factory=dict)
    """Structured detail (row numbers, step numbers, keyword hits, task ids)."""


class TaskConfig(_Model):
    """The parts of a WebArena task config the metrics use.

    >>> TaskConfig(task_id="0", intent="What is the top-1 best-selling product in 2022").requirements
    []
    """

    task_id: str
    intent: str | None = None
    """The task instruction."""
    sites: list[str] = Field(default_factory=list)
    """WebArena sites (``shopping_admin``, ``gitlab``, ...)."""
    requirements: list[str] = Field(default_factory=list)
    """``reference_answers.must_include``, else a list-valued ``fuzzy_match``; never split on commas."""
    requirement_source: Literal["must_include", "fuzzy_match"] | None = None
    """Which field the requirements came from."""
    exact_match: str | None = None
    """``reference_answers.exact_match``, kept for reports (not a requirement list)."""
    fuzzy_match_text: str | None = None
    """A string-valued ``fuzzy_match`` such as ``N/A`` (an expected answer, not a requirement list)."""
    string_note: str | None = None
    """``eval.string_note``."""
    eval_types: list[str] = Field(default_factory=list)
    """``eval.eval_types`` (``string_match``, ``url_match``, ``program_html``)."""
    start_url: str | None = None
    """The task's start URL, informational."""


class GoldSet(_Model):
    """Gold trajectories read from one file, with every defect repaired and every record that failed.

    ``tasks`` keeps file order. Step order inside a task is file order too (alignment labels index gold
    steps by it).
    """

    tasks: dict[str, GoldTrajectory] = Field(default_factory=dict)
    """Task id -> gold trajectory, in file order."""
    defects: list[GoldDefect] = Field(default_factory=list)
    """Data defects found and how each was handled."""
    problems: list[ReadProblem] = Field(default_factory=list)
    """Records that could not be read (the others were)."""
    source: str | None = None
    """The file read."""
    format: GoldFormat | None = None
    """Which reader was used."""

    def n_steps(self) -> int:
        """Number of gold steps over all tasks."""
        return sum(len(t.steps) for t in self.tasks.values())

    def by_kind(self) -> dict[str, int]:
        """Steps per action kind, every kind listed (zeros included) in ACTION_KINDS order."""
        counts = Counter(s.action.kind for t in self.tasks.values() for s in t.steps)
        return {k: counts.get(k, 0) for k in ACTION_KINDS}

    def unparsed(self) -> list[tuple[str, int, GoldStep]]:
        """(task id, 0-based step index, step) of every step the parser left as kind ``other``."""
        return [
            (tid, i, s) for tid, t in self.tasks.items() for i, s in enumerate(t.steps) if s.action.kind == "other"
        ]

    def defect_counts(self) -> dict[str, int]:
        """Defects per kind, only kinds that occur, in DEFECT_KINDS order."""
        counts = Counter(d.kind for d in self.defects)
        return {k: counts[k] for k in DEFECT_KINDS if counts.get(k)}

    def summary(self) -> str:
        """One line: tasks, steps, parse coverage, defects, problems."""
        n = self.n_steps()
        other = len(self.unparsed())
        parsed = f"{(n - other) / n:.2%}" if n else "n/a"
        return (
            f"{len(self.tasks)} tasks, {n} steps ({parsed} parsed, {other} unparsed), "
            f"{len(self.defects)} defects, {len(self.problems)} problems"
        )
