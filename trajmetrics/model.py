"""The normalised data model every reader produces and every later stage consumes.

Data flows one way: readers (``formats/``, ``gold/``) build these objects, the matcher decides step
equivalence on them, the metrics count, and reports render. Nothing downstream looks at raw files.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

ActionKind = Literal[
    "click",
    "type",
    "select",
    "press",
    "scroll",
    "hover",
    "goto",
    "go_back",
    "go_forward",
    "new_tab",
    "tab_focus",
    "close_tab",
    "answer",
    "note",
    "wait",
    "other",
]
#: Every action kind, in the order METRICS.md section 1 lists them.
ACTION_KINDS: tuple[str, ...] = get_args(ActionKind)


def normalise_task_id(value: Any) -> str:
    """Task ids are strings; spreadsheets hand them over as floats (``10.0`` -> ``"10"``).

    >>> normalise_task_id(10.0), normalise_task_id(" 7 "), normalise_task_id("task_3")
    ('10', '7', 'task_3')
    """
    if isinstance(value, bool):
        raise ValueError(f"task id must be a string or number, found {value!r}")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"task id must be finite, found {value!r}")
        if value.is_integer():
            return str(int(value))
        return repr(value)
    text = str(value).strip()
    if not text:
        raise ValueError("task id is empty")
    if text.endswith(".0") and text[:-2].isdigit():
        text = text[:-2]
    return text


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Target(_Model):
    """The element an action is applied to. Any field may be unknown."""

    id: str | None = None
    """Element id in the page (BrowserGym bid, WebArena id)."""
    role: str | None = None
    """Accessibility role (link, button, textbox, ...). Roles never decide a match alone."""
    name: str | None = None
    """Accessible name or label, as shown to the user."""
    x: float | None = None
    """Screen x coordinate, for computer-use actions that have no element."""
    y: float | None = None
    """Screen y coordinate."""

    def is_empty(self) -> bool:
        return all(v is None for v in (self.id, self.role, self.name, self.x, self.y))


class Action(_Model):
    """One action: what was done, to which element, with which value.

    >>> Action(kind="type", target=Target(name="Search"), value="shoes", submit=True).kind
    'type'
    """

    kind: ActionKind
    """One of ACTION_KINDS."""
    target: Target = Field(default_factory=Target)
    """The element acted on (empty for goto, answer, ...)."""
    value: str | None = None
    """Typed text, selected option, key, URL, scroll direction or answer text."""
    submit: bool = False
    """A composite type-then-Enter (WebArena ``type [id] [text] [1]``); expands into two atoms."""
    raw: str = ""
    """The source text the action was read from, kept verbatim."""
    tool: str | None = None
    """For tool-calling agents: the tool name (kept even when mapped to a kind)."""
    args: dict[str, Any] | None = None
    """For tool-calling agents: the tool arguments, kept for `other` actions."""

    def short(self) -> str:
        """A one-line human description, for tables, disagreement lists and judge questions.

        >>> Action(kind="type", target=Target(role="textbox", name="Search"), value="shoes", submit=True).short()
        "type 'shoes' into textbox 'Search' and press Enter"
        """
        t = self.target
        if t.role or t.name:
            where = f"{t.role or 'element'} '{t.name or ''}'" if t.name else f"{t.role}"
            if t.id:
                where += f" [{t.id}]"
        elif t.id:
            where = f"element [{t.id}]"
        elif t.x is not None:
            where = f"point ({t.x:g}, {t.y if t.y is not None else 0:g})"
        else:
            where = ""
        value = None if self.value is None else (self.value if len(self.value) <= 200 else self.value[:197] + "...")
        k = self.kind
        if k == "type":
            text = f"type '{value or ''}'" + (f" into {where}" if where else "")
            return text + (" and press Enter" if self.submit else "")
        if k == "select":
            return f"select '{value or ''}'" + (f" in {where}" if where else "")
        if k == "press":
            return f"press {value or ''}" + (f" on {where}" if where else "")
        if k == "goto":
            return f"go to {value or ''}"
        if k in ("answer", "note"):
            return f"{k}: {value or ''}"
        if k == "scroll":
            return f"scroll {value or ''}" + (f" in {where}" if where else "")
        if k == "other" and self.tool:
            return f"{self.tool}({self.args or {}})"
        if k == "other" and self.raw:
            return self.raw[:200]
        return f"{k.replace('_', ' ')}" + (f" {where}" if where else "") + (f" '{value}'" if value else "")


class AgentStep(_Model):
    """One executed agent action with what the model said about it."""

    action: Action
    """The executed action, with its element resolved where the format allows."""
    thought: str | None = None
    """The model's reasoning for this step, when the format records it."""
    planned: Action | None = None
    """The action the model proposed (its text), for element accuracy. None when not recoverable."""
    planned_raw: str | None = None
    """The planned action's source text (e.g. the triple-backtick block)."""
    url: str | None = None
    """Page URL the action was taken on."""
    error: str | None = None
    """Error the environment reported for this action."""
    early_stop: bool = False
    """WebArena ``stop [Early stop: ...]``: this and later steps are not considered by element accuracy."""
    plan_source: str | None = None
    """Free-form note on where ``planned`` came from (``last_block``, ``first_block``, ``action_tag``)."""


class AgentTrajectory(_Model):
    """One task attempt by an agent."""

    task_id: str
    """Task id, joined with the gold task id."""
    steps: list[AgentStep] = Field(default_factory=list)
    """Executed steps in order."""
    intent: str | None = None
    """The task instruction, when the run records it."""
    final_answer: str | None = None
    """The agent's final answer (last answer action); None when it gave none."""
    aborted: bool = False
    """Killed by an environment error: excluded from metrics unless --include-aborted."""
    abort_reason: str | None = None
    """Why it is marked aborted."""
    source: str | None = None
    """File or folder it was read from."""
    format: str | None = None
    """Reader that produced it."""
    meta: dict[str, Any] = Field(default_factory=dict)
    """Reader-specific extras (reward, n_steps, ...)."""

    @field_validator("task_id", mode="before")
    @classmethod
    def _task_id(cls, v: Any) -> str:
        return normalise_task_id(v)

    def resolved_final_answer(self) -> str | None:
        """The final answer: explicit, else the value of the last `answer` action."""
        if self.final_answer is not None:
            return self.final_answer
        for step in reversed(self.steps):
            if step.action.kind == "answer":
                return step.action.value
        return None


class GoldStep(_Model):
    """One human gold step: its original text and the action parsed from it."""

    text: str
    """The original English text, verbatim."""
    action: Action
    """The parsed action (kind `other` when the parser could not tell)."""
    step_no: str | None = None
    """The step number as the source wrote it (may be missing or non-numeric)."""


class GoldTrajectory(_Model):
    """The human path for one task, with its requirements."""

    task_id: str
    intent: str | None = None
    """Task instruction (WebArena `intent`)."""
    steps: list[GoldStep] = Field(default_factory=list)
    """Gold steps in order."""
    requirements: list[str] = Field(default_factory=list)
    """What the final answer must state (WebArena must_include / list-valued fuzzy_match)."""
    sites: list[str] = Field(default_factory=list)
    """WebArena sites, informational."""
    source: str | None = None
    """File it was read from."""
    repairs: list[str] = Field(default_factory=list)
    """Data defects repaired while reading this task (never silent)."""

    @field_validator("task_id", mode="before")
    @classmethod
    def _task_id(cls, v: Any) -> str:
        return normalise_task_id(v)


def expand_atoms(step: AgentStep) -> list[Action]:
    """Atomic actions of one executed step, for alignment (METRICS.md section 1).

    A composite WebArena ``type [id] [text] [1]`` becomes a type and an Enter press on the same element.

    >>> a = Action(kind="type", target=Target(id="5", name="Search"), value="x", submit=True)
    >>> [x.kind for x in expand_atoms(AgentStep(action=a))]
    ['type', 'press']
    """
    return _expand_action(step.action)


def _expand_action(action: Action) -> list[Action]:
    if action.kind == "type" and action.submit:
        typed = action.model_copy(update={"submit": False})
        enter = Action(kind="press", target=action.target, value="Enter", raw=action.raw)
        return [typed, enter]
    return [action]


def gold_atoms(gold: GoldTrajectory) -> tuple[list[Action], list[int]]:
    """Atoms of the gold path and, for each, its gold step: "Type 'X' and press Enter" is two atoms,
    like the agent's ``type [id] [X] [1]``, so its Enter is not taken for a deviation."""
    atoms: list[Action] = []
    owner: list[int] = []
    for j, step in enumerate(gold.steps):
        for atom in _expand_action(step.action):
            atoms.append(atom)
            owner.append(j)
    return atoms, owner


def trajectory_atoms(traj: AgentTrajectory) -> tuple[list[Action], list[int]]:
    """All atoms of a trajectory and, for each atom, the index of the step it came from."""
    atoms: list[Action] = []
    owner: list[int] = []
    for i, step in enumerate(traj.steps):
        for atom in expand_atoms(step):
            atoms.append(atom)
            owner.append(i)
    return atoms, owner


class ReadProblem(_Model):
    """A task (or record) a reader could not read. Reported in the output; the other tasks go on."""

    message: str
    """``file:record: field: expected ..., found ...``."""
    source: str | None = None
    """File or folder."""
    task_id: str | None = None
    """The task it belongs to, when known."""
    kind: Literal["agent", "gold"] = "agent"
    """Which side it came from."""
