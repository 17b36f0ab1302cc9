"""Metric options (METRICS.md sections 3-5) and the two presets.

Every mode is a ``Literal`` alias so the valid values live in one place; the CLI builds its choices
from the same aliases with ``typing.get_args``.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import ConfigError
from .model import ACTION_KINDS

Unfinished = Literal["one", "each", "none"]
ZeroDeviation = Literal["one", "skip"]
StepOrder = Literal["unordered", "ordered"]
StepMatching = Literal["maximum", "greedy"]
UnsurePolicy = Literal["threshold", "reject", "accept"]
PlanBlock = Literal["last", "first"]
PresetName = Literal["default", "reference"]

PRESETS: tuple[str, ...] = get_args(PresetName)


class MetricConfig(BaseModel):
    """Every choice METRICS.md leaves open, validated. Unknown options are an error listing the valid ones.

    >>> MetricConfig(lookahead=3).lookahead
    3
    >>> MetricConfig.from_preset("reference").unfinished
    'each'
    """

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    preset: PresetName = "default"
    """Which preset the other values started from (informational)."""
    lookahead: int = Field(5, ge=0)
    """Recovery: how many gold steps ahead a deviating agent may rejoin the path (0 = the script)."""
    unfinished: Unfinished = "one"
    """Recovery: gold steps left when the agent ends on-track count as one incident, one each, or none."""
    zero_deviation: ZeroDeviation = "one"
    """Recovery: a task with no deviation scores 1.0 (`one`) or is not applicable (`skip`)."""
    step_order: StepOrder = "unordered"
    """Step success: which of the two rates `step_success_rate` reports."""
    step_matching: StepMatching = "maximum"
    """Step success: maximum one-to-one matching, or the script's greedy first-fit in gold order."""
    repeat_exempt: tuple[str, ...] = ()
    """Repetitiveness: action kinds whose immediate repeats are not counted (e.g. scroll)."""
    unsure_policy: UnsurePolicy = "threshold"
    """How an UNSURE decision resolves without a judge verdict."""
    plan_block: PlanBlock = "last"
    """Element accuracy: which triple-backtick block of the model text is the plan (the script: last)."""
    include_aborted: bool = False
    """Score trajectories marked aborted (excluded by default, listed in the report)."""
    bootstrap_samples: int = Field(2000, ge=0)
    """Aggregation: bootstrap resamples for the 95% interval (0 disables it)."""
    seed: int = 0
    """Aggregation: bootstrap seed, so intervals are reproducible."""

    @model_validator(mode="before")
    @classmethod
    def _known_options(cls, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(cls.model_fields))
            if unknown:
                raise ValueError(f"unknown option(s) {', '.join(unknown)}; valid options: {', '.join(cls.model_fields)}")
        return data

    @field_validator("repeat_exempt", mode="before")
    @classmethod
    def _kinds(cls, value: Any) -> tuple[str, ...]:
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        kinds = tuple(dict.fromkeys(str(v).strip() for v in value))
        bad = [k for k in kinds if k not in ACTION_KINDS]
        if bad:
            raise ValueError(f"unknown action kind(s) {bad}; valid kinds: {', '.join(ACTION_KINDS)}")
        return kinds

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> "MetricConfig":
        """The named preset with some options overridden.

        >>> MetricConfig.from_preset("reference", lookahead=2).lookahead
        2
        """
        if name not in PRESETS:
            raise ConfigError(f"unknown preset {name!r}; valid presets: {', '.join(PRESETS)}")
        base: dict[str, Any] = {"preset": name}
        if name == "reference":
            base.update(lookahead=0, unfinished="each", step_matching="greedy", plan_block="last")
        base.update({k: v for k, v in overrides.items() if v is not None})
        return cls.create(**base)

    @classmethod
    def create(cls, **options: Any) -> "MetricConfig":
        """Validate options, turning pydantic errors into one readable ConfigError."""
        unknown = sorted(set(options) - set(cls.model_fields))
        if unknown:
            raise ConfigError(
                f"unknown option(s) {', '.join(unknown)}; valid options: {', '.join(cls.model_fields)}"
            )
        try:
            return cls(**options)
        except ValidationError as exc:
            msgs = []
            for err in exc.errors():
                loc = ".".join(str(p) for p in err["loc"])
                msgs.append(f"{loc}: {err['msg']}")
            raise ConfigError("; ".join(msgs)) from None


def option_choices(name: str) -> tuple[str, ...]:
    """The valid values of a Literal-typed option, for CLI choices and error messages."""
    annotation = MetricConfig.model_fields[name].annotation
    return tuple(get_args(annotation))
