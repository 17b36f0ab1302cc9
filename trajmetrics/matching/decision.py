"""A match decision with its evidence, and the interface a judge implements."""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

Verdict = Literal["MATCH", "NO_MATCH", "UNSURE"]
DecisionSource = Literal["rules", "judge", "cache", "policy"]
JudgeTask = Literal["step", "repeat", "requirement"]


class Decision(BaseModel):
    """The verdict on one pair (agent atom vs gold step, step vs previous step, answer vs requirement)."""

    verdict: Verdict
    """MATCH, NO_MATCH or UNSURE (rules only; resolved decisions are never UNSURE)."""
    score: float = 0.0
    """Rule score in [0, 1]."""
    rule: str = ""
    """Which rule decided (e.g. ``kind-incompatible``, ``name+value``)."""
    evidence: dict[str, Any] = Field(default_factory=dict)
    """Scores and normalised strings behind the verdict."""
    source: DecisionSource = "rules"
    """Who gave the final verdict."""
    reason: str | None = None
    """The judge's short reason, when the judge decided."""

    @property
    def is_match(self) -> bool:
        return self.verdict == "MATCH"


class JudgeQuestion(BaseModel):
    """One question for the judge: the rules were UNSURE about this pair."""

    task: JudgeTask
    """step (agent step vs gold step), repeat (step vs previous step), requirement (answer vs requirement)."""
    left: str
    """Agent side: the agent action (or the final answer) as text."""
    right: str
    """Gold side: the gold step text, the previous agent action, or the requirement."""
    intent: str | None = None
    """Task instruction, for context."""
    thought: str | None = None
    """The agent's thought for the step, when present."""

    def key_payload(self) -> dict[str, Any]:
        """What identifies the question for caching and de-duplication (normalised inputs only)."""
        return {
            "task": self.task,
            "left": " ".join(self.left.split()),
            "right": " ".join(self.right.split()),
            "intent": " ".join((self.intent or "").split()),
            "thought": " ".join((self.thought or "").split()),
        }


class JudgeAnswer(BaseModel):
    """The judge's answer to one question. ``verdict`` None means it failed (error, budget, garbage)."""

    verdict: Literal["MATCH", "NO_MATCH"] | None
    reason: str | None = None
    cached: bool = False
    error: str | None = None


class Judge(Protocol):
    """Anything that answers judge questions. Answers come back in the order asked."""

    def ask(self, questions: list[JudgeQuestion]) -> list[JudgeAnswer]: ...

    def stats(self) -> dict[str, Any]: ...
