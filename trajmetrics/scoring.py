"""The scoring pipeline: join agent runs to gold, decide matches, compute metrics, one task at a time.

read -> normalise to the model -> decide matches (rules, then judge only where it matters) ->
compute metrics -> report. Tasks are scored and yielded one at a time, so memory stays flat.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence, Union

import numpy as np

from .config import MetricConfig
from .matching.decision import Decision, Judge, JudgeAnswer, JudgeQuestion
from .matching.rules import POLICY_MIDPOINT, match_repeat, match_requirement, same_action, step_decisions
from .metrics import (
    METRIC_NAMES,
    element_accuracy,
    first_fit,
    greedy_matching,
    maximum_matching,
    ordered_matching,
    partial_success_rate,
    recovery_walk,
    repeated_steps,
    repetitiveness_rate,
    summarise,
)
from .model import AgentTrajectory, GoldTrajectory, ReadProblem, gold_atoms, trajectory_atoms
from .reports.models import (
    ElementAccuracyDetail,
    JudgeSummary,
    RecoveryDetail,
    Report,
    RequirementVerdict,
    TaskResult,
    UnsureDecision,
)

PathLike = Union[str, os.PathLike]
AgentInput = Union[PathLike, AgentTrajectory, Iterable[Union[AgentTrajectory, ReadProblem, PathLike]]]
GoldInput = Union[PathLike, Iterable[GoldTrajectory], dict, Any]

# A recovery walk asks the judge round by round (each round: the UNSURE pairs the walk reached);
# this caps the rounds for pathological inputs; the rest resolve by policy and are reported.
_MAX_JUDGE_ROUNDS = 64
# Tasks may be scored in threads when a judge is waited on: their shared counters need a lock.
_STATS_LOCK = threading.Lock()


class _TaskResolver:
    """Resolves UNSURE decisions of one task: judge where a metric depends on them, else policy."""

    def __init__(self, config: MetricConfig, judge: Judge | None, stats: JudgeSummary) -> None:
        self.config = config
        self.judge = judge
        self.stats = stats
        self.verdicts: dict[tuple[str, int, int], bool] = {}
        """Resolved UNSURE decisions by key (question, agent index, gold index)."""
        self.sources: dict[tuple[str, int, int], tuple[str, str | None]] = {}
        """Who resolved each (judge, cache or policy) and why."""

    def policy(self, decision: Decision) -> bool:
        p = self.config.unsure_policy
        if p == "accept":
            return True
        if p == "reject":
            return False
        return decision.score >= POLICY_MIDPOINT

    def known(self, key: tuple[str, int, int]) -> bool | None:
        return self.verdicts.get(key)

    def ask(self, items: list[tuple[tuple[str, int, int], JudgeQuestion, Decision]]) -> None:
        """Ask the judge about these keys (or apply the policy without one) and record the verdicts."""
        # Once per key: a pair two procedures reached in the same round is one question.
        items = list({it[0]: it for it in items if it[0] not in self.verdicts}.values())
        if not items:
            return
        if self.judge is None:
            for key, _q, dec in items:
                self.verdicts[key] = self.policy(dec)
                self.sources[key] = ("policy", None)
            return
        with _STATS_LOCK:
            self.stats.questions += len(items)
        answers: list[JudgeAnswer] = self.judge.ask([q for _k, q, _d in items])
        for (key, _q, dec), ans in zip(items, answers):
            if ans.verdict is None:
                with _STATS_LOCK:
                    self.stats.fallbacks += 1
                self.verdicts[key] = self.policy(dec)
                self.sources[key] = ("policy", f"judge failed: {ans.error or 'no verdict'}")
            else:
                self.verdicts[key] = ans.verdict == "MATCH"
                self.sources[key] = ("cache" if ans.cached else "judge", ans.reason)


def score_task(
    agent: AgentTrajectory,
    gold: GoldTrajectory,
    config: MetricConfig | None = None,
    *,
    judge: Judge | None = None,
    judge_stats: JudgeSummary | None = None,
) -> TaskResult:
    """Score one agent trajectory against its gold trajectory.

    >>> from trajmetrics.model import Action, AgentStep, GoldStep, Target
    >>> click = Action(kind="click", target=Target(name="Issues"))
    >>> g = GoldTrajectory(task_id="1", steps=[GoldStep(text="Click 'Issues'", action=click)])
    >>> a = AgentTrajectory(task_id="1", steps=[AgentStep(action=click)])
    >>> score_task(a, g).step_success_rate
    1.0
    """
    config = config or MetricConfig()
    stats = judge_stats if judge_stats is not None else JudgeSummary()
    resolver = _TaskResolver(config, judge, stats)
    atoms, atom_step = trajectory_atoms(agent)
    gold_actions, gold_step = gold_atoms(gold)
    n_a, n_g = len(atoms), len(gold_actions)

    # 1. Rules on every (agent atom, gold atom) pair. Gold atoms are gold steps except for composite
    #    "type and press Enter" steps, which are two (see model.gold_atoms).
    decisions: list[list[Decision]] = step_decisions(atoms, gold_actions)
    verdict = np.zeros((n_a, n_g), dtype=np.int8)  # 1 MATCH, 0 NO_MATCH, -1 UNSURE
    weight = np.zeros((n_a, n_g), dtype=np.float64)
    for i, row in enumerate(decisions):
        for j, d in enumerate(row):
            verdict[i, j] = 1 if d.verdict == "MATCH" else (-1 if d.verdict == "UNSURE" else 0)
            # Among equally large matchings prefer the steps that did not fail: a retried click that
            # timed out and its successful retry both match, the retry is the step that counted.
            weight[i, j] = d.score - (0.05 if agent.steps[atom_step[i]].error else 0.0)
    unsure_pairs = list(zip(*np.nonzero(verdict == -1)))

    def step_question(i: int, j: int) -> tuple[tuple[str, int, int], JudgeQuestion, Decision]:
        step = agent.steps[atom_step[i]]
        q = JudgeQuestion(task="step", left=atoms[i].short(), right=gold.steps[gold_step[j]].text,
                          intent=gold.intent or agent.intent, thought=step.thought)
        return (("step", int(i), int(j)), q, decisions[i][j])

    # 2. Repeats: rules on each step vs the previous one.
    kinds = [s.action.kind for s in agent.steps]
    repeat_decisions: dict[int, Decision] = {}
    for i in range(1, len(agent.steps)):
        if kinds[i] not in config.repeat_exempt:
            repeat_decisions[i] = match_repeat(agent.steps[i - 1].action, agent.steps[i].action,
                                               previous_failed=bool(agent.steps[i - 1].error))

    # 3. Requirements: rules on the final answer.
    answer = agent.resolved_final_answer()
    req_decisions = [match_requirement(answer, r) for r in gold.requirements]

    # 4. Ask the judge only what can change a metric. First round: repeats, requirements (when
    #    partial success applies) and the pairs the recovery walk reaches; then step success.
    first_round: list[tuple[tuple[str, int, int], JudgeQuestion, Decision]] = []
    for i, d in repeat_decisions.items():
        if d.verdict == "UNSURE":
            q = JudgeQuestion(task="repeat", left=agent.steps[i].action.short(),
                              right=agent.steps[i - 1].action.short(), intent=gold.intent or agent.intent)
            first_round.append((("repeat", i, i - 1), q, d))
    if len(gold.requirements) >= 2:
        for k, d in enumerate(req_decisions):
            if d.verdict == "UNSURE":
                q = JudgeQuestion(task="requirement", left=answer or "", right=gold.requirements[k],
                                  intent=gold.intent or agent.intent)
                first_round.append((("requirement", -1, k), q, d))

    # The recovery walk (and greedy first-fit, which is not monotone either) reach UNSURE pairs that
    # depend on earlier verdicts: ask round by round exactly the pairs they look at.
    def lazy(pending: list | None) -> Callable[[int, int], bool]:
        def m(i: int, j: int) -> bool:
            v = verdict[i, j]
            if v != -1:
                return bool(v == 1)
            known = resolver.known(("step", i, j))
            if known is not None:
                return known
            if pending is not None:
                pending.append(step_question(i, j))
            return resolver.policy(decisions[i][j])

        return m

    def walk(pending: list | None):
        probe = lazy(pending)
        if pending is not None and config.step_matching == "greedy":
            first_fit(n_a, n_g, probe)
            first_fit(n_a, n_g, probe, ordered=True)
        return recovery_walk(n_a, n_g, probe, lookahead=config.lookahead, unfinished=config.unfinished,
                             zero_deviation=config.zero_deviation)

    rounds = 0
    batch = first_round
    while True:
        pending: list = []
        walk(pending)
        batch = batch + pending
        if not batch or rounds >= _MAX_JUDGE_ROUNDS:
            break
        resolver.ask(batch)
        batch = []
        rounds += 1
    rec = walk(None)

    # Maximum and ordered matchings: ask, best-scored first, only while the UNSURE pairs can still
    # change a matching size (both sizes are monotone in the set of matching pairs).
    if judge is not None and unsure_pairs and config.step_matching == "maximum":
        for _ in range(_MAX_JUDGE_ROUNDS):
            open_pairs = [(int(i), int(j)) for i, j in unsure_pairs if resolver.known(("step", int(i), int(j))) is None]
            if not open_pairs:
                break
            low = verdict == 1
            known_true = [(i, j) for i, j in unsure_pairs if resolver.known(("step", int(i), int(j)))]
            for i, j in known_true:
                low[i, j] = True
            high = low.copy()
            for i, j in open_pairs:
                high[i, j] = True
            gap = _matching_gap(low, high)
            if gap == 0:
                break
            open_pairs.sort(key=lambda p: (-decisions[p[0]][p[1]].score, p))
            resolver.ask([step_question(i, j) for i, j in open_pairs[: max(gap, 1) * 2]])

    # Every UNSURE pair not asked resolves by policy (no metric needed it, or no judge).
    leftovers = [step_question(i, j) for i, j in unsure_pairs]
    leftovers += [(("repeat", i, i - 1), None, d) for i, d in repeat_decisions.items() if d.verdict == "UNSURE"]
    leftovers += [(("requirement", -1, k), None, d) for k, d in enumerate(req_decisions) if d.verdict == "UNSURE"]
    for key, _q, dec in leftovers:
        if key not in resolver.verdicts:
            resolver.verdicts[key] = resolver.policy(dec)
            resolver.sources[key] = ("policy", None if judge is None else "not needed by any metric")

    # 5. Metrics on resolved decisions.
    resolved = verdict == 1
    for i, j in unsure_pairs:
        resolved[i, j] = resolver.verdicts[("step", int(i), int(j))]
    if config.step_matching == "greedy":
        pairs_unordered = greedy_matching(resolved)
        pairs_ordered = greedy_matching(resolved, ordered=True)
    else:
        pairs_unordered = maximum_matching(resolved, weight)
        pairs_ordered = ordered_matching(resolved, weight)
    pairs = pairs_ordered if config.step_order == "ordered" else pairs_unordered
    n_gold_steps = len(gold.steps)

    def is_repeat(i: int) -> bool:
        d = repeat_decisions[i]
        if d.verdict == "UNSURE":
            return resolver.verdicts[("repeat", i, i - 1)]
        return d.verdict == "MATCH"

    repeats = repeated_steps(kinds, is_repeat, config.repeat_exempt)

    requirements: list[RequirementVerdict] = []
    for k, d in enumerate(req_decisions):
        if d.verdict == "UNSURE":
            met = resolver.verdicts[("requirement", -1, k)]
            src = resolver.sources[("requirement", -1, k)][0]
        else:
            met, src = d.verdict == "MATCH", "rules"
        requirements.append(RequirementVerdict(requirement=gold.requirements[k], met=met, rule=d.rule, source=src))

    ea = element_accuracy(
        [None if s.planned is None else same_action(s.planned, s.action) for s in agent.steps],
        [s.early_stop for s in agent.steps],
    )

    unsure: list[UnsureDecision] = []
    for key, _q, dec in leftovers:
        kind, a, g = key
        src, reason = resolver.sources[key]
        unsure.append(UnsureDecision(
            question=kind, agent=None if a < 0 else a, gold=gold_step[g] if kind == "step" else g,
            score=dec.score, rule=dec.rule, evidence=dec.evidence,
            verdict="MATCH" if resolver.verdicts[key] else "NO_MATCH", source=src, reason=reason,
        ))

    return TaskResult(
        task_id=agent.task_id,
        recovery_rate=rec.rate,
        repetitiveness_rate=repetitiveness_rate(len(agent.steps), len(repeats)),
        step_success_rate=_steps_fulfilled(pairs, gold_step, n_gold_steps),
        step_success_rate_ordered=_steps_fulfilled(pairs_ordered, gold_step, n_gold_steps),
        partial_success_rate=partial_success_rate([r.met for r in requirements]),
        element_accuracy_rate=ea.rate,
        n_steps=len(agent.steps),
        n_atoms=n_a,
        n_gold=n_gold_steps,
        atom_step=atom_step,
        matches=[(gold_step[g], int(a)) for g, a in pairs],
        matches_ordered=[(gold_step[g], int(a)) for g, a in pairs_ordered],
        recovery=RecoveryDetail(
            incidents=rec.incidents, recoveries=rec.recoveries, mean_cost=rec.mean_cost,
            first_deviation=rec.first_deviation,
            events=[{"start": e.start, "end": e.end, "gold": gold_step[e.gold],
                     "rejoined_gold": None if e.rejoined_gold is None else gold_step[e.rejoined_gold],
                     "recovered": e.recovered, "cost": e.cost, "kind": e.kind} for e in rec.events],
        ),
        repeats=repeats,
        requirements=requirements,
        final_answer=answer,
        element_accuracy=ElementAccuracyDetail(considered=ea.considered, equal=ea.equal, no_plan=ea.no_plan,
                                               early_stop_at=ea.early_stop_at),
        unsure=unsure,
        n_unsure=len(leftovers),
    )


def _steps_fulfilled(pairs: list[tuple[int, int]], gold_step: list[int], n_steps: int) -> float | None:
    """Share of gold steps all of whose atoms are matched (a gold step is one atom but for composites)."""
    if n_steps == 0:
        return None
    matched_atoms = {g for g, _ in pairs}
    need: dict[int, int] = {}
    for g_atom, step in enumerate(gold_step):
        need[step] = need.get(step, 0) + (0 if g_atom in matched_atoms else 1)
    return sum(1 for step in range(n_steps) if need.get(step, 1) == 0) / n_steps


def _matching_gap(low: np.ndarray, high: np.ndarray) -> int:
    """How much the matchings could still grow from ``low`` (sure) to ``high`` (every open pair
    accepted). Maximum matching and LCS sizes are monotone in the set of matching pairs, so a gap of 0
    means no resolution of the open pairs can change either step success rate."""
    return (len(maximum_matching(high)) - len(maximum_matching(low))) + (
        len(ordered_matching(high)) - len(ordered_matching(low)))


# --- Whole runs ------------------------------------------------------------------------------------

def _load_gold(gold: GoldInput, tasks_path: PathLike | None, problems: list[ReadProblem],
               gold_repeats: str = "keep") -> dict[str, GoldTrajectory]:
    if isinstance(gold, dict):
        return {str(k): v for k, v in gold.items()}
    if isinstance(gold, (str, os.PathLike)):
        from .gold import read_gold

        gold_set = read_gold(gold, tasks_path, repeats=gold_repeats)  # type: ignore[arg-type]
        problems.extend(gold_set.problems)
        return dict(gold_set.tasks)
    if hasattr(gold, "tasks") and isinstance(getattr(gold, "tasks"), dict):
        problems.extend(getattr(gold, "problems", []) or [])
        return dict(gold.tasks)
    return {g.task_id: g for g in gold}


def _iter_agent(agent: AgentInput, agent_format: str | None, tool_map: Any, plan_block: str) -> Iterator[AgentTrajectory | ReadProblem]:
    if isinstance(agent, AgentTrajectory):
        yield agent
        return
    if isinstance(agent, (str, os.PathLike)):
        agent = [agent]
    paths: list[PathLike] = []
    for item in agent:  # type: ignore[union-attr]
        if isinstance(item, (AgentTrajectory, ReadProblem)):
            yield item
        else:
            paths.append(item)
    if paths:
        from .formats import read_agent_runs

        yield from read_agent_runs(paths, agent_format, tool_map=tool_map, plan_block=plan_block)


@dataclass
class RunState:
    """What a streaming run accumulated, to build the summary at the end."""

    config: MetricConfig
    judge_stats: JudgeSummary
    problems: list[ReadProblem] = field(default_factory=list)
    values: dict[str, list[float | None]] = field(default_factory=lambda: {m: [] for m in METRIC_NAMES})
    status_counts: dict[str, int] = field(default_factory=dict)
    unsure: int = 0
    seen: set[str] = field(default_factory=set)
    gold_ids: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, config: MetricConfig, judge: Judge | None) -> "RunState":
        """A fresh run; the judge is named by its ``kind`` attribute (OpenAIJudge: "openai") or class."""
        kind = "none" if judge is None else str(getattr(judge, "kind", None) or type(judge).__name__)
        return cls(config=config, judge_stats=JudgeSummary(kind=kind))

    def add(self, result: TaskResult) -> None:
        self.status_counts[result.status] = self.status_counts.get(result.status, 0) + 1
        self.unsure += result.n_unsure
        self.seen.add(result.task_id)
        if result.status == "scored":
            for m in METRIC_NAMES:
                self.values[m].append(result.metric(m))

    def report(self, tasks: list[TaskResult], judge: Judge | None) -> Report:
        summary = {m: summarise(v, samples=self.config.bootstrap_samples, seed=self.config.seed)
                   for m, v in self.values.items()}
        gold_only = [g for g in self.gold_ids if g not in self.seen]
        if judge is not None:
            s = dict(judge.stats())
            for k in ("calls", "cache_hits", "tokens_in", "tokens_out", "errors"):
                setattr(self.judge_stats, k, int(s.pop(k, 0) or 0))
            self.judge_stats.model = s.pop("model", None)
            self.judge_stats.extra = s
        counts = dict(self.status_counts)
        counts.update(problems=len(self.problems), unsure=self.unsure, gold_only=len(gold_only))
        return Report(summary=summary, tasks=tasks, config=self.config.model_dump(mode="json"),
                      judge=self.judge_stats, problems=self.problems, gold_only=gold_only[:1000],
                      gold_only_count=len(gold_only), counts=counts)


def iter_task_results(
    agent: AgentInput,
    gold: GoldInput,
    config: MetricConfig | None = None,
    *,
    judge: Judge | None = None,
    tasks: Sequence[str] | None = None,
    tasks_path: PathLike | None = None,
    agent_format: str | None = None,
    tool_map: Any = None,
    gold_repeats: str = "keep",
    state: RunState | None = None,
) -> Iterator[TaskResult]:
    """Score task by task, yielding each result as soon as it is computed (flat memory).

    Pass a ``RunState`` to collect what the summary needs; ``RunState.report`` builds it at the end.
    ``gold_repeats="drop"`` scores only the first recording of gold tasks recorded twice (see ``read_gold``).
    """
    config = config or MetricConfig()
    state = state or RunState.start(config, judge)
    gold_map = _load_gold(gold, tasks_path, state.problems, gold_repeats)
    wanted = {str(t) for t in tasks} if tasks else None
    state.gold_ids = [g for g in gold_map if wanted is None or g in wanted]

    def jobs() -> Iterator[TaskResult | tuple[AgentTrajectory, GoldTrajectory | None]]:
        for item in _iter_agent(agent, agent_format, tool_map, config.plan_block):
            if isinstance(item, ReadProblem):
                if wanted is None or item.task_id is None or item.task_id in wanted:
                    state.problems.append(item)
                    if item.task_id is not None:
                        yield TaskResult(task_id=item.task_id, status="error", message=item.message)
            elif wanted is None or item.task_id in wanted:
                yield item, gold_map.get(item.task_id)

    window = _task_window(judge)
    if window <= 1:
        for job in jobs():
            result = job if isinstance(job, TaskResult) else _score_one(*job, config, judge, state.judge_stats)
            state.add(result)
            yield result
        return
    # With a judge, tasks wait on the network: score a few at once (results still come out in input
    # order, and at most `window` trajectories are held in memory).
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=window, thread_name_prefix="trajmetrics-task") as pool:
        queue: deque[Future[TaskResult] | TaskResult] = deque()

        def drain(keep: int) -> Iterator[TaskResult]:
            while len(queue) > keep:
                head = queue.popleft()
                result = head.result() if isinstance(head, Future) else head
                state.add(result)
                yield result

        for job in jobs():
            queue.append(job if isinstance(job, TaskResult)
                         else pool.submit(_score_one, *job, config, judge, state.judge_stats))
            yield from drain(window)
        yield from drain(0)


def _task_window(judge: Judge | None) -> int:
    """How many tasks to score at once: one without a judge (pure CPU) or with a call budget (which
    questions fit a budget must not depend on thread timing); else as many as the judge's concurrency."""
    if judge is None or getattr(judge, "max_calls", None) is not None:
        return 1
    return max(1, int(getattr(judge, "concurrency", 1) or 1))


def _score_one(agent: AgentTrajectory, gold: GoldTrajectory | None, config: MetricConfig,
               judge: Judge | None, stats: JudgeSummary) -> TaskResult:
    base = {"task_id": agent.task_id, "n_steps": len(agent.steps)}
    if agent.aborted and not config.include_aborted:
        return TaskResult(**base, status="aborted", message=agent.abort_reason or "aborted")
    if gold is None:
        return TaskResult(**base, status="missing_gold", message="no gold trajectory for this task id")
    try:
        return score_task(agent, gold, config, judge=judge, judge_stats=stats)
    except Exception as exc:  # one bad task never loses the others; it is reported
        if os.environ.get("TRAJMETRICS_RAISE_ERRORS"):
            raise
        return TaskResult(**base, status="error", message=f"{type(exc).__name__}: {exc}")


def score(
    agent: AgentInput,
    gold: GoldInput,
    config: MetricConfig | dict | None = None,
    *,
    judge: Judge | None = None,
    tasks: Sequence[str] | None = None,
    tasks_path: PathLike | None = None,
    agent_format: str | None = None,
    tool_map: Any = None,
    gold_repeats: str = "keep",
    on_task: Callable[[TaskResult], None] | None = None,
) -> Report:
    """Score agent runs against gold trajectories and return a Report.

    ``agent``: a path (any supported format), a list of paths, or AgentTrajectory objects.
    ``gold``: a path (xlsx, csv, canonical JSONL), a GoldSet, a dict or a list of GoldTrajectory.

    >>> from trajmetrics.model import Action, AgentStep, GoldStep, Target
    >>> click = Action(kind="click", target=Target(name="Issues"))
    >>> g = [GoldTrajectory(task_id="1", steps=[GoldStep(text="Click 'Issues'", action=click)])]
    >>> report = score([AgentTrajectory(task_id="1", steps=[AgentStep(action=click)])], g)
    >>> report.summary["step_success_rate"].mean
    1.0
    """
    if isinstance(config, dict):
        config = MetricConfig.create(**config)
    config = config or MetricConfig()
    state = RunState.start(config, judge)
    results = []
    for result in iter_task_results(agent, gold, config, judge=judge, tasks=tasks, tasks_path=tasks_path,
                                    agent_format=agent_format, tool_map=tool_map, gold_repeats=gold_repeats,
                                    state=state):
        results.append(result)
        if on_task is not None:
            on_task(result)
    return state.report(results, judge)
