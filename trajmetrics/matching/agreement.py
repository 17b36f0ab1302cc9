"""How far the matcher agrees with people: pair precision/recall/F1/kappa and metric errors vs labels.

Labels are JSONL, one task per line (the format of ``labels/dev_alignment.jsonl``)::

    {"task_id": 10, "matches": [{"g": 0, "a": null, "sure": true}, {"g": 3, "a": 2, "sure": true}],
     "repeats": [4], "requirements": [{"req": "...", "met": true}], "note": "..."}

``g`` is the 0-based gold step index in file order, ``a`` the 0-based executed agent *step* index (not
atom), or null when no agent step fulfils that gold step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from ..config import MetricConfig
from ..errors import InputError
from ..metrics import partial_success_rate, recovery_walk, repetitiveness_rate
from ..model import AgentTrajectory, GoldTrajectory, normalise_task_id, trajectory_atoms
from ..reports.models import TaskResult
from .normalize import norm_value
from .rules import match_step


class LabelPair(BaseModel):
    g: int
    a: int | None = None
    sure: bool = True


class LabelRequirement(BaseModel):
    req: str
    met: bool


class TaskLabels(BaseModel):
    """Reviewed alignment labels for one task."""

    task_id: str
    matches: list[LabelPair] = Field(default_factory=list)
    repeats: list[int] = Field(default_factory=list)
    requirements: list[LabelRequirement] = Field(default_factory=list)
    note: str | None = None


def read_labels(path: str | Path) -> dict[str, TaskLabels]:
    """Read a labels JSONL file; a bad line is an InputError naming the line and field."""
    out: dict[str, TaskLabels] = {}
    p = Path(path)
    with p.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(str(p), f"line {n}", None, "a JSON object", f"invalid JSON ({exc.msg})") from None
            if not isinstance(raw, dict) or "task_id" not in raw:
                raise InputError(str(p), f"line {n}", "task_id", "an object with a task_id", raw)
            try:
                raw["task_id"] = normalise_task_id(raw["task_id"])
                labels = TaskLabels.model_validate(raw)
            except (ValidationError, ValueError) as exc:
                if isinstance(exc, ValidationError):
                    err = exc.errors()[0]
                    field = ".".join(str(x) for x in err["loc"])
                    raise InputError(str(p), f"line {n}", field, err["msg"].lower(), err.get("input")) from None
                raise InputError(str(p), f"line {n}", "task_id", "a task id", raw.get("task_id")) from None
            out[labels.task_id] = labels
    return out


class PairScores(BaseModel):
    precision: float | None
    recall: float | None
    f1: float | None
    kappa: float | None
    """Cohen's kappa over every (gold step, agent step) cell: matched or not, engine vs labels."""
    true_positive: int
    false_positive: int
    false_negative: int
    cells: int


class Disagreement(BaseModel):
    task_id: str
    kind: str
    """``extra`` (engine matched, labels did not) or ``missed`` (labels matched, engine did not)."""
    gold_index: int
    gold_text: str
    agent_index: int | None
    agent_action: str | None
    decision: str | None
    """The rule verdict on the pair (for ``missed``: on the labelled pair)."""
    score: float | None
    rule: str | None
    evidence: dict[str, Any] = Field(default_factory=dict)
    label_sure: bool | None = None
    resolved_by: str | None = None
    """rules, judge, cache or policy."""


class SetScores(BaseModel):
    """Agreement on a set of labelled items (repeated steps)."""

    precision: float | None
    recall: float | None
    f1: float | None
    true_positive: int
    false_positive: int
    false_negative: int


class RequirementAgreement(BaseModel):
    """Agreement on requirement verdicts (met / not met) for the requirements both sides know."""

    compared: int
    agree: int
    accuracy: float | None
    disagreements: list[dict[str, Any]] = Field(default_factory=list)


class AgreementReport(BaseModel):
    tasks: int
    pairs: PairScores
    pairs_sure_only: PairScores
    """The same, ignoring labelled pairs reviewers marked ``sure: false`` (and engine pairs on those gold steps)."""
    step_success_mae: float | None
    recovery_mae: float | None
    repetitiveness_mae: float | None
    partial_success_mae: float | None
    repeats: SetScores
    """Engine's repeated steps vs the labelled ones."""
    requirements: RequirementAgreement
    """Engine's requirement verdicts vs the labelled ones."""
    unsure: dict[str, int]
    """UNSURE step pairs found by the rules, and how they were resolved (judge MATCH/NO_MATCH, policy)."""
    judge: dict[str, Any] = Field(default_factory=dict)
    per_task: list[dict[str, Any]] = Field(default_factory=list)
    disagreements: list[Disagreement] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    """Labelled task ids with no scored agent run or no gold."""


def _pair_scores(tp: int, fp: int, fn: int, cells: int) -> PairScores:
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = (2 * precision * recall / (precision + recall)) if precision and recall else (0.0 if tp + fp + fn else None)
    tn = cells - tp - fp - fn
    kappa = None
    if cells:
        po = (tp + tn) / cells
        p_yes = ((tp + fp) / cells) * ((tp + fn) / cells)
        p_no = ((tn + fn) / cells) * ((tn + fp) / cells)
        pe = p_yes + p_no
        kappa = 1.0 if pe == 1 else (po - pe) / (1 - pe)
    return PairScores(precision=precision, recall=recall, f1=f1, kappa=kappa, true_positive=tp,
                      false_positive=fp, false_negative=fn, cells=cells)


def _set_scores(tp: int, fp: int, fn: int) -> SetScores:
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = (2 * precision * recall / (precision + recall)) if precision and recall else (0.0 if tp + fp + fn else None)
    return SetScores(precision=precision, recall=recall, f1=f1, true_positive=tp, false_positive=fp, false_negative=fn)


def _mae(pairs: list[tuple[float | None, float | None]]) -> float | None:
    diffs = [abs(a - b) for a, b in pairs if a is not None and b is not None]
    return float(np.mean(diffs)) if diffs else None


def label_metrics(labels: TaskLabels, agent: AgentTrajectory, gold: GoldTrajectory,
                  config: MetricConfig) -> dict[str, float | None]:
    """The per-task metric values the labels imply (labelled pairs taken as the match relation)."""
    n_g = len(gold.steps)
    atoms, owner = trajectory_atoms(agent)
    pairs = {(p.g, p.a) for p in labels.matches if p.a is not None}
    step_pairs = {(g, a) for g, a in pairs if g < n_g}
    # A labelled agent step matches through any of its atoms.
    mat = np.zeros((len(atoms), n_g), dtype=bool)
    for i, s in enumerate(owner):
        for g in range(n_g):
            if (g, s) in step_pairs:
                mat[i, g] = True
    rec = recovery_walk(len(atoms), n_g, lambda i, j: bool(mat[i, j]), lookahead=config.lookahead,
                        unfinished=config.unfinished, zero_deviation=config.zero_deviation)
    return {
        "step_success_rate": (len({g for g, _ in step_pairs}) / n_g) if n_g else None,
        "recovery_rate": rec.rate,
        "repetitiveness_rate": repetitiveness_rate(len(agent.steps), len(set(labels.repeats))),
        "partial_success_rate": partial_success_rate([r.met for r in labels.requirements]),
    }


def compare(
    labels: dict[str, TaskLabels],
    scored: Iterable[tuple[TaskResult, AgentTrajectory, GoldTrajectory]],
    config: MetricConfig,
    judge_stats: dict[str, Any] | None = None,
) -> AgreementReport:
    """Compare engine results with labels, task by task (tasks without labels are ignored)."""
    tp = fp = fn = cells = 0
    s_tp = s_fp = s_fn = s_cells = 0
    errs: dict[str, list[tuple[float | None, float | None]]] = {
        k: [] for k in ("step_success_rate", "recovery_rate", "repetitiveness_rate", "partial_success_rate")}
    unsure = {"pairs": 0, "judge_match": 0, "judge_no_match": 0, "policy_match": 0, "policy_no_match": 0}
    disagreements: list[Disagreement] = []
    per_task: list[dict[str, Any]] = []
    seen: set[str] = set()
    r_tp = r_fp = r_fn = 0
    req_compared = req_agree = 0
    req_disagreements: list[dict[str, Any]] = []
    for result, agent, gold in scored:
        lab = labels.get(result.task_id)
        if lab is None or result.status != "scored":
            continue
        seen.add(result.task_id)
        atoms, owner = trajectory_atoms(agent)
        # Labels pair a gold step with one agent step; a composite gold step ("type and press Enter")
        # may match two agent atoms: its first matched atom stands for it.
        first_atom: dict[int, int] = {}
        for g, a in sorted(result.matches, key=lambda p: (p[0], p[1])):
            first_atom.setdefault(g, a)
        engine = {(g, owner[a]) for g, a in first_atom.items()}
        labelled = {(p.g, p.a) for p in lab.matches if p.a is not None}
        unsure_gold = {p.g for p in lab.matches if not p.sure}
        n_cells = len(gold.steps) * len(agent.steps)
        t_tp, t_fp, t_fn = len(engine & labelled), len(engine - labelled), len(labelled - engine)
        tp, fp, fn, cells = tp + t_tp, fp + t_fp, fn + t_fn, cells + n_cells
        e_s = {p for p in engine if p[0] not in unsure_gold}
        l_s = {p for p in labelled if p[0] not in unsure_gold}
        s_tp, s_fp, s_fn = s_tp + len(e_s & l_s), s_fp + len(e_s - l_s), s_fn + len(l_s - e_s)
        s_cells += (len(gold.steps) - len(unsure_gold & set(range(len(gold.steps))))) * len(agent.steps)
        engine_rep, label_rep = set(result.repeats), set(lab.repeats)
        r_tp, r_fp, r_fn = r_tp + len(engine_rep & label_rep), r_fp + len(engine_rep - label_rep), r_fn + len(label_rep - engine_rep)
        by_text = {norm_value(v.requirement): v for v in result.requirements}
        for k, lr in enumerate(lab.requirements):
            ev = by_text.get(norm_value(lr.req))
            if ev is None and k < len(result.requirements):
                ev = result.requirements[k]
            if ev is None:
                continue
            req_compared += 1
            if ev.met == lr.met:
                req_agree += 1
            else:
                req_disagreements.append({"task_id": result.task_id, "requirement": lr.req, "label_met": lr.met,
                                          "engine_met": ev.met, "rule": ev.rule, "source": ev.source,
                                          "final_answer": (result.final_answer or "")[:300]})
        implied = label_metrics(lab, agent, gold, config)
        row: dict[str, Any] = {"task_id": result.task_id, "tp": t_tp, "fp": t_fp, "fn": t_fn}
        for k in errs:
            errs[k].append((result.metric(k), implied[k]))
            row[k] = result.metric(k)
            row[f"{k}_labels"] = implied[k]
        per_task.append(row)
        sources = {(u.gold, u.agent): u for u in result.unsure if u.question == "step"}
        for u in result.unsure:
            if u.question != "step":
                continue
            unsure["pairs"] += 1
            key = ("judge" if u.source in ("judge", "cache") else "policy") + ("_match" if u.verdict == "MATCH" else "_no_match")
            unsure[key] += 1
        sure_of = {p.g: p.sure for p in lab.matches}
        for kind, pairs in (("extra", engine - labelled), ("missed", labelled - engine)):
            for g, s in sorted(pairs):
                if g >= len(gold.steps) or s >= len(agent.steps):
                    disagreements.append(Disagreement(task_id=result.task_id, kind="out-of-range", gold_index=g,
                                                      gold_text="", agent_index=s, agent_action=None,
                                                      decision=None, score=None, rule=None))
                    continue
                # The most favourable atom of that step explains the decision best.
                step_atoms = [i for i, o in enumerate(owner) if o == s]
                decs = [(match_step(atoms[i], gold.steps[g].action), i) for i in step_atoms]
                dec, atom_i = max(decs, key=lambda d: d[0].score)
                u = sources.get((g, atom_i))
                disagreements.append(Disagreement(
                    task_id=result.task_id, kind=kind, gold_index=g, gold_text=gold.steps[g].text,
                    agent_index=s, agent_action=agent.steps[s].action.short(), decision=dec.verdict,
                    score=dec.score, rule=dec.rule, evidence=dec.evidence, label_sure=sure_of.get(g),
                    resolved_by=(u.source if u is not None else "rules"),
                ))
    return AgreementReport(
        tasks=len(seen),
        pairs=_pair_scores(tp, fp, fn, cells),
        pairs_sure_only=_pair_scores(s_tp, s_fp, s_fn, s_cells),
        step_success_mae=_mae(errs["step_success_rate"]),
        recovery_mae=_mae(errs["recovery_rate"]),
        repetitiveness_mae=_mae(errs["repetitiveness_rate"]),
        partial_success_mae=_mae(errs["partial_success_rate"]),
        repeats=_set_scores(r_tp, r_fp, r_fn),
        requirements=RequirementAgreement(compared=req_compared, agree=req_agree,
                                          accuracy=(req_agree / req_compared) if req_compared else None,
                                          disagreements=req_disagreements),
        unsure=unsure,
        judge=judge_stats or {},
        per_task=per_task,
        disagreements=disagreements,
        missing=sorted(set(labels) - seen, key=lambda t: (len(t), t)),
    )


def agreement(
    agent: Any,
    gold: Any,
    labels: str | Path | dict[str, TaskLabels],
    config: MetricConfig | None = None,
    *,
    judge: Any = None,
    tasks: list[str] | None = None,
    tasks_path: str | Path | None = None,
    agent_format: str | None = None,
    gold_repeats: str = "keep",
) -> AgreementReport:
    """Score the labelled tasks and compare the engine's matches and metrics with the labels.

    Example::

        report = agreement("results/", "gold.xlsx", "dev_alignment.jsonl", tasks_path="test.raw.json")
        report.pairs.f1, report.step_success_mae
    """
    from ..scoring import RunState, _iter_agent, _load_gold, _score_one

    config = config or MetricConfig()
    label_map = labels if isinstance(labels, dict) else read_labels(labels)
    wanted = set(tasks) if tasks else set(label_map)
    state = RunState.start(config, judge)
    gold_map = _load_gold(gold, tasks_path, state.problems, gold_repeats)

    def scored():
        for item in _iter_agent(agent, agent_format, None, config.plan_block):
            if not isinstance(item, AgentTrajectory) or item.task_id not in wanted:
                continue
            g = gold_map.get(item.task_id)
            if g is None:
                continue
            yield _score_one(item, g, config, judge, state.judge_stats), item, g

    report = compare({k: v for k, v in label_map.items() if k in wanted}, scored(), config)
    if judge is not None:
        report.judge = {**dict(judge.stats()), "questions": state.judge_stats.questions,
                        "fallbacks": state.judge_stats.fallbacks}
    return report
