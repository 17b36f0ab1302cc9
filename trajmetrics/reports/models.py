"""Report models: what `trajmetrics.score` returns and what `--format json` prints."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..metrics.aggregate import MetricSummary
from ..model import ReadProblem

TaskStatus = Literal["scored", "aborted", "missing_gold", "error"]


class _Model(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)


class UnsureDecision(_Model):
    """A pair the rules were UNSURE about, and how it was resolved."""

    question: Literal["step", "repeat", "requirement"]
    agent: int | None = None
    """Agent atom index (step), step index (repeat), or None (requirement)."""
    gold: int | None = None
    """Gold step index (step), previous step index (repeat), requirement index (requirement)."""
    score: float
    rule: str
    evidence: dict[str, Any] = Field(default_factory=dict)
    """What the rule saw (normalised names or values, similarities)."""
    verdict: Literal["MATCH", "NO_MATCH"]
    """The resolved verdict."""
    source: Literal["judge", "cache", "policy"]
    """judge/cache: the judge decided; policy: `unsure_policy` decided (no judge, error or budget)."""
    reason: str | None = None
    """The judge's reason, or why the policy was used."""


class RecoveryDetail(_Model):
    incidents: int
    recoveries: int
    mean_cost: float | None
    """Mean agent atoms spent per recovery (None when nothing recovered; never inf)."""
    first_deviation: int | None
    """Agent atom index where the first deviation began."""
    events: list[dict[str, Any]] = Field(default_factory=list)
    """Each incident: start, end, gold, rejoined_gold, recovered, cost, kind."""


class RequirementVerdict(_Model):
    requirement: str
    met: bool
    rule: str
    source: Literal["rules", "judge", "cache", "policy"] = "rules"


class ElementAccuracyDetail(_Model):
    considered: int
    equal: int
    no_plan: int
    early_stop_at: int | None


class TaskResult(_Model):
    """Everything computed for one task, with the evidence behind each number."""

    task_id: str
    status: TaskStatus = "scored"
    message: str | None = None
    """Why the task was not scored (aborted reason, missing gold, error)."""
    recovery_rate: float | None = None
    repetitiveness_rate: float | None = None
    step_success_rate: float | None = None
    step_success_rate_ordered: float | None = None
    partial_success_rate: float | None = None
    element_accuracy_rate: float | None = None
    n_steps: int = 0
    """Executed agent steps."""
    n_atoms: int = 0
    """Atomic actions after expanding composite steps."""
    n_gold: int = 0
    """Gold steps."""
    atom_step: list[int] = Field(default_factory=list)
    """For each agent atom, the index of the step it came from."""
    matches: list[tuple[int, int]] = Field(default_factory=list)
    """Pairs (gold index, agent atom index) of the matching `step_success_rate` counts."""
    matches_ordered: list[tuple[int, int]] = Field(default_factory=list)
    """Pairs of the order-preserving matching."""
    recovery: RecoveryDetail | None = None
    repeats: list[int] = Field(default_factory=list)
    """Agent step indices that immediately repeat the previous step."""
    requirements: list[RequirementVerdict] = Field(default_factory=list)
    final_answer: str | None = None
    element_accuracy: ElementAccuracyDetail | None = None
    unsure: list[UnsureDecision] = Field(default_factory=list)
    """Every UNSURE decision the metrics depended on, with its resolution."""
    n_unsure: int = 0
    """UNSURE pairs found by the rules (including ones no metric needed)."""

    def metric(self, name: str) -> float | None:
        return getattr(self, name)


class JudgeSummary(_Model):
    """What the judge did in this run."""

    kind: str = "none"
    model: str | None = None
    calls: int = 0
    cache_hits: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    errors: int = 0
    fallbacks: int = 0
    """Questions resolved by `unsure_policy` because the judge failed or the budget ran out."""
    questions: int = 0
    """Questions sent to the judge (after rules, before in-run de-duplication)."""
    extra: dict[str, Any] = Field(default_factory=dict)


class Report(_Model):
    """A scored run: summary per metric, per-task results, config, judge, problems."""

    summary: dict[str, MetricSummary]
    tasks: list[TaskResult]
    config: dict[str, Any]
    judge: JudgeSummary = Field(default_factory=JudgeSummary)
    problems: list[ReadProblem] = Field(default_factory=list)
    """Inputs that could not be read (each a task or record), reported instead of dropped."""
    gold_only: list[str] = Field(default_factory=list)
    """Gold task ids with no agent trajectory (capped at the first 1000 ids)."""
    gold_only_count: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    """Tasks by status, problems, UNSURE totals."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (the `--format json` object)."""
        return self.model_dump(mode="json")
