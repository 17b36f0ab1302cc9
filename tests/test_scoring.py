"""The `score()` API on model objects: task joins, statuses, errors, report JSON, config errors, judge use."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trajmetrics.matching.rules as rules
import trajmetrics.scoring as scoring
from trajmetrics import (
    Action,
    AgentStep,
    AgentTrajectory,
    ConfigError,
    GoldStep,
    GoldTrajectory,
    MetricConfig,
    Target,
    score,
    score_task,
)
from trajmetrics.config import option_choices
from trajmetrics.matching.decision import Decision, JudgeAnswer, JudgeQuestion
from trajmetrics.matching.rules import match_repeat, match_requirement, match_step
from trajmetrics.metrics import METRIC_NAMES
from trajmetrics.model import expand_atoms

SUMMARY_KEYS = {"mean", "std", "n", "n_na", "ci95"}


def click(name, role="link", id=None):
    return Action(kind="click", target=Target(id=id, role=role, name=name))


ISSUES, LABELS, WIKI = click("Issues"), click("Labels"), click("Wiki")
# Same site, but the gold step names a page: the rules are UNSURE (goto:host), the policy accepts it.
SITE = Action(kind="goto", value="wikipedia.org")
PAGE = Action(kind="goto", value="https://en.wikipedia.org/wiki/Pittsburgh")


def at(x, y):
    return Action(kind="click", target=Target(x=x, y=y))


def test_fixture_pairs_are_unsure():
    # Preconditions of the judge tests below: if the rules change, pick other UNSURE pairs.
    assert match_step(SITE, PAGE).verdict == "UNSURE"
    assert match_step(PAGE, PAGE).verdict == "MATCH"
    assert match_step(click("Sprite Yoga Strap 6 foot"), click(None)).verdict == "UNSURE"  # gold names nothing
    assert match_repeat(at(100, 50), at(120, 60)).verdict == "UNSURE"


def gold(task_id, *actions, requirements=(), intent="Open the labels page"):
    return GoldTrajectory(task_id=task_id, intent=intent, requirements=list(requirements),
                          steps=[GoldStep(text=f"Click '{a.target.name}'" if a.target.name else a.short(), action=a)
                                 for a in actions])


def agent(task_id, *actions, answer=None, **kw):
    steps = [AgentStep(action=a, planned=a) for a in actions]
    if answer is not None:
        steps.append(AgentStep(action=Action(kind="answer", value=answer)))
    return AgentTrajectory(task_id=task_id, steps=steps, **kw)


class FakeJudge:
    """A judge double: answers every question with ``verdict`` (or ``decide(question)``), records them."""

    def __init__(self, verdict="MATCH", decide=None):
        self.verdict = verdict
        self.decide = decide
        self.asked: list[JudgeQuestion] = []
        self.calls = 0

    def ask(self, questions):
        self.calls += 1
        self.asked.extend(questions)
        out = []
        for q in questions:
            v = self.decide(q) if self.decide else self.verdict
            out.append(JudgeAnswer(verdict=v, reason=f"fake says {v}", error=None if v else "timeout"))
        return out

    def stats(self):
        return {"calls": self.calls, "cache_hits": 0, "tokens_in": 10 * len(self.asked), "tokens_out": 0,
                "errors": 0, "model": "fake-judge-1"}


# --- Joining tasks, statuses -------------------------------------------------------------------------

class TestRun:
    def test_tasks_on_one_side_only(self):
        agents = [agent("1", ISSUES, LABELS), agent("2", ISSUES), agent("3", WIKI)]
        golds = [gold("1", ISSUES, LABELS), gold("2", ISSUES, LABELS), gold("4", ISSUES), gold("5", WIKI)]
        report = score(agents, golds)
        by_id = {t.task_id: t for t in report.tasks}
        assert [t.task_id for t in report.tasks] == ["1", "2", "3"]
        assert by_id["3"].status == "missing_gold" and by_id["3"].step_success_rate is None
        assert by_id["1"].status == by_id["2"].status == "scored"
        assert report.gold_only == ["4", "5"] and report.gold_only_count == 2
        assert report.counts["gold_only"] == 2 and report.counts["missing_gold"] == 1
        assert report.counts["scored"] == 2
        s = report.summary["step_success_rate"]
        assert (s.n, s.n_na, s.mean) == (2, 0, 0.75)  # the missing-gold task is neither a value nor n/a

    def test_gold_as_dict_and_float_task_ids(self):
        report = score([agent(7.0, ISSUES)], {"7": gold("7", ISSUES)})
        assert report.tasks[0].task_id == "7" and report.tasks[0].status == "scored"

    def test_aborted_excluded_by_default(self):
        agents = [agent("1", ISSUES), agent("2", WIKI, aborted=True, abort_reason="browser crashed")]
        golds = [gold("1", ISSUES), gold("2", ISSUES)]
        report = score(agents, golds)
        t2 = report.tasks[1]
        assert (t2.status, t2.message) == ("aborted", "browser crashed")
        assert t2.step_success_rate is None
        assert report.counts["aborted"] == 1 and report.gold_only == []
        s = report.summary["step_success_rate"]
        assert (s.mean, s.n) == (1.0, 1)

    def test_aborted_included_on_request(self):
        agents = [agent("1", ISSUES), agent("2", WIKI, aborted=True, abort_reason="browser crashed")]
        golds = [gold("1", ISSUES), gold("2", ISSUES)]
        report = score(agents, golds, MetricConfig(include_aborted=True))
        assert [t.status for t in report.tasks] == ["scored", "scored"]
        s = report.summary["step_success_rate"]
        assert (s.mean, s.n) == (0.5, 2)
        assert score(agents, golds, {"include_aborted": True}).summary["step_success_rate"].n == 2

    def test_a_task_that_raises_becomes_an_error_and_the_others_are_scored(self, monkeypatch):
        monkeypatch.delenv("TRAJMETRICS_RAISE_ERRORS", raising=False)
        real = scoring.match_requirement

        def flaky(answer, requirement):
            if requirement == "boom":
                raise RuntimeError("rapidfuzz exploded")
            return real(answer, requirement)

        monkeypatch.setattr(scoring, "match_requirement", flaky)
        agents = [agent("1", ISSUES, answer="42"), agent("2", ISSUES, answer="42"), agent("3", WIKI)]
        golds = [gold("1", ISSUES, requirements=["42", "7"]), gold("2", ISSUES, requirements=["boom"]),
                 gold("3", ISSUES)]
        seen = []
        report = score(agents, golds, on_task=lambda r: seen.append(r.task_id))
        assert seen == ["1", "2", "3"]
        t1, t2, t3 = report.tasks
        assert t2.status == "error" and t2.message == "RuntimeError: rapidfuzz exploded"
        assert (t1.status, t1.partial_success_rate) == ("scored", 0.5)
        assert (t3.status, t3.step_success_rate) == ("scored", 0.0)
        assert report.counts["error"] == 1 and report.counts["scored"] == 2
        assert report.summary["step_success_rate"].n == 2

    def test_raise_errors_env_var_reraises(self, monkeypatch):
        monkeypatch.setenv("TRAJMETRICS_RAISE_ERRORS", "1")
        monkeypatch.setattr(scoring, "match_requirement", lambda a, r: (_ for _ in ()).throw(RuntimeError("x")))
        with pytest.raises(RuntimeError):
            score([agent("1", ISSUES, answer="42")], [gold("1", ISSUES, requirements=["42"])])

    def test_tasks_filter(self):
        report = score([agent("1", ISSUES), agent("2", ISSUES)], [gold("1", ISSUES), gold("2", ISSUES)],
                       tasks=["2"])
        assert [t.task_id for t in report.tasks] == ["2"] and report.gold_only == []

    def test_task_values_do_not_depend_on_other_tasks(self):
        alone = score([agent("1", ISSUES, WIKI)], [gold("1", ISSUES, LABELS)]).tasks[0]
        together = score([agent("0", LABELS), agent("1", ISSUES, WIKI), agent("2", WIKI, WIKI)],
                         [gold("0", LABELS), gold("1", ISSUES, LABELS), gold("2", WIKI)]).tasks[1]
        assert alone == together


# --- Report JSON ------------------------------------------------------------------------------------

def test_report_to_dict_json_shape():
    agents = [agent("1", ISSUES, LABELS, answer="Kevin Hart, 1234"), agent("2", WIKI)]
    golds = [gold("1", ISSUES, LABELS, requirements=["Kevin Hart", "$1,234.00"]), gold("2", ISSUES, LABELS)]
    report = score(agents, golds, MetricConfig.from_preset("reference", bootstrap_samples=200, seed=5))
    d = json.loads(json.dumps(report.to_dict()))
    assert {"summary", "tasks", "config"} <= set(d)
    assert set(d["summary"]) == set(METRIC_NAMES)
    for name, s in d["summary"].items():
        assert set(s) == SUMMARY_KEYS, name
    assert d["summary"]["step_success_rate"]["mean"] == 0.5
    assert d["summary"]["step_success_rate"]["n"] == 2
    assert d["summary"]["partial_success_rate"] == {"mean": 1.0, "std": None, "n": 1, "n_na": 1,
                                                    "ci95": [1.0, 1.0]}
    lo, hi = d["summary"]["recovery_rate"]["ci95"]
    assert 0.0 <= lo <= hi <= 1.0
    assert [t["task_id"] for t in d["tasks"]] == ["1", "2"]
    for t in d["tasks"]:
        assert {"task_id", "matches", *METRIC_NAMES} <= set(t)
    assert d["tasks"][0]["matches"] == [[0, 0], [1, 1]]
    assert d["tasks"][1]["matches"] == []
    assert d["config"]["preset"] == "reference" and d["config"]["lookahead"] == 0
    assert d["config"]["unfinished"] == "each" and d["config"]["seed"] == 5
    # reproducible: same input, same seed, same JSON
    again = score(agents, golds, MetricConfig.from_preset("reference", bootstrap_samples=200, seed=5))
    assert again.to_dict() == report.to_dict()


# --- Config errors ----------------------------------------------------------------------------------

class TestConfigErrors:
    def test_unknown_option_lists_the_valid_ones(self):
        with pytest.raises(ConfigError) as exc:
            MetricConfig.create(lookahed=3)
        msg = str(exc.value)
        assert "lookahed" in msg
        for field in MetricConfig.model_fields:
            assert field in msg

    def test_unknown_option_through_score(self):
        with pytest.raises(ConfigError, match=r"unknown option\(s\) unfinshed; valid options: .*unfinished"):
            score([agent("1", ISSUES)], [gold("1", ISSUES)], {"unfinshed": "each"})

    def test_unknown_option_in_preset_override(self):
        with pytest.raises(ConfigError, match="valid options"):
            MetricConfig.from_preset("reference", look_ahead=2)

    def test_bad_values_list_the_valid_values(self):
        with pytest.raises(ConfigError, match="'one', 'each' or 'none'"):
            MetricConfig.create(unfinished="all")
        with pytest.raises(ConfigError, match="valid kinds: click, type"):
            MetricConfig.create(repeat_exempt=["scrol"])
        with pytest.raises(ConfigError, match="valid presets: default, reference"):
            MetricConfig.from_preset("paper")
        with pytest.raises(ConfigError, match="lookahead"):
            MetricConfig.create(lookahead=-1)
        assert option_choices("unfinished") == ("one", "each", "none")
        assert option_choices("step_order") == ("unordered", "ordered")

    def test_reference_preset_values(self):
        ref = MetricConfig.from_preset("reference")
        assert (ref.lookahead, ref.unfinished, ref.step_matching, ref.plan_block, ref.zero_deviation) == (
            0, "each", "greedy", "last", "one")
        assert MetricConfig.from_preset("reference", lookahead=None).lookahead == 0  # None = not overridden

    def test_unknown_option_in_constructor_lists_the_valid_ones(self):
        with pytest.raises(Exception) as exc:
            MetricConfig(lookahed=3)
        assert "unfinished" in str(exc.value) and "zero_deviation" in str(exc.value)


# --- Judge ------------------------------------------------------------------------------------------

# Actions whose rule decisions are often UNSURE against each other: structural UNSURE rules (same site
# other page, unnamed gold element, same text into another field, nearby coordinates) and similar names.
POOL = [
    click("Issues"), click("Issue list"), click("Create project"), click("New project"),
    click("Add to Cart", role="button"), click("Add to Wish List", role="button"), click(None, id="31"),
    SITE, PAGE, at(100, 50), at(120, 60),
    Action(kind="type", target=Target(role="textbox", name="From"), value="Pittsburgh"),
    Action(kind="type", target=Target(role="textbox", name="To"), value="Pittsburgh", submit=True),
    Action(kind="scroll", value="down"), Action(kind="press", value="Enter"), click("Search", role="button"),
]
GOLD_POOL = POOL + [click(None)]  # "Click the first result": an unnamed gold step
REQS = ["Joseph Smith", "Kevin Hart", "1234", "Fancy Shop Inc"]
ANSWERS = [None, "Joe Smith", "Kevin Hart spent $1,234", "The customer is Joe Smith and 1234"]


@st.composite
def tasks_with_unsure(draw):
    a_idx = draw(st.lists(st.integers(0, len(POOL) - 1), max_size=6))
    g_idx = draw(st.lists(st.integers(0, len(GOLD_POOL) - 1), min_size=1, max_size=5))
    reqs = draw(st.lists(st.sampled_from(REQS), max_size=3, unique=True))
    answer = draw(st.sampled_from(ANSWERS))
    ag = agent("t", *[POOL[i] for i in a_idx], answer=answer)
    gd = GoldTrajectory(task_id="t", intent="Find the customer", requirements=reqs,
                        steps=[GoldStep(text=f"gold step {k}: {GOLD_POOL[i].short()}", action=GOLD_POOL[i])
                               for k, i in enumerate(g_idx)])
    lookahead = draw(st.sampled_from([0, 1, 5]))
    return ag, gd, MetricConfig(lookahead=lookahead)


def step_rule_decisions(atoms, gold_actions):
    """The step decisions scoring uses (with rules.step_decisions' context rules, when there are any)."""
    if hasattr(rules, "step_decisions"):
        return rules.step_decisions(atoms, gold_actions)
    return [[match_step(a, g) for g in gold_actions] for a in atoms]


def unsure_descriptors(ag: AgentTrajectory, gd: GoldTrajectory):
    """(task, left, right) of every pair the rules are UNSURE about, as the judge would see it."""
    out = set()
    atoms = [a for s in ag.steps for a in expand_atoms(s)]
    decisions = step_rule_decisions(atoms, [g.action for g in gd.steps])
    for a, row in zip(atoms, decisions):
        for g, d in zip(gd.steps, row):
            if d.verdict == "UNSURE":
                out.add(("step", a.short(), g.text))
    for prev, cur in zip(ag.steps, ag.steps[1:]):
        if match_repeat(prev.action, cur.action).verdict == "UNSURE":
            out.add(("repeat", cur.action.short(), prev.action.short()))
    answer = ag.resolved_final_answer()
    for r in gd.requirements:
        if match_requirement(answer, r).verdict == "UNSURE":
            out.add(("requirement", answer or "", r))
    return out


class TestJudge:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(tasks_with_unsure())
    def test_judge_moves_step_success_the_right_way_and_sees_only_unsure_pairs(self, task):
        ag, gd, cfg = task
        rules_only = score_task(ag, gd, cfg)
        yes, no = FakeJudge("MATCH"), FakeJudge("NO_MATCH")
        with_yes = score_task(ag, gd, cfg, judge=yes)
        with_no = score_task(ag, gd, cfg, judge=no)
        for m in ("step_success_rate", "step_success_rate_ordered"):
            assert with_yes.metric(m) >= rules_only.metric(m) >= with_no.metric(m), m
        allowed = unsure_descriptors(ag, gd)
        for j in (yes, no):
            for q in j.asked:
                assert (q.task, q.left, q.right) in allowed, q
                assert q.intent == "Find the customer"
        # every judge verdict is reported with its source
        for u in with_yes.unsure:
            assert u.source in ("judge", "policy")
            if u.source == "judge":
                assert u.verdict == "MATCH"
        assert with_yes.n_unsure == rules_only.n_unsure == len(rules_only.unsure)
        if not allowed:
            assert yes.asked == [] and no.asked == []

    def test_no_question_when_no_unsure_pair_can_change_a_metric(self):
        # The last goto (SITE vs gold PAGE) is UNSURE, but it comes after the gold path is done and the
        # gold step is matched anyway; its neighbour is a scroll, so there is no repeat question either.
        scroll = Action(kind="scroll", value="down")
        ag = agent("1", PAGE, scroll, SITE)
        gd = gold("1", PAGE)
        judge = FakeJudge("NO_MATCH")
        report = score([ag], [gd], judge=judge)
        assert judge.asked == [] and judge.calls == 0
        t = report.tasks[0]
        assert (t.step_success_rate, t.recovery_rate, t.n_unsure) == (1.0, 1.0, 1)
        assert (t.unsure[0].agent, t.unsure[0].gold) == (2, 0)
        assert (t.unsure[0].source, t.unsure[0].reason) == ("policy", "not needed by any metric")
        assert report.judge.questions == 0 and report.counts["unsure"] == 1

    def test_no_requirement_question_when_partial_success_does_not_apply(self, monkeypatch):
        # The rules are made UNSURE about "Joseph Smith" (whatever their calibration), sure about the rest.
        real = scoring.match_requirement

        def fake(answer, requirement):
            if requirement == "Joseph Smith":
                return Decision(verdict="UNSURE", score=0.6, rule="test")
            return real(answer, requirement)

        monkeypatch.setattr(scoring, "match_requirement", fake)
        judge = FakeJudge("MATCH")
        res = score_task(agent("1", ISSUES, answer="Joe Smith"), gold("1", ISSUES, requirements=["Joseph Smith"]),
                         judge=judge)
        assert judge.asked == [] and res.partial_success_rate is None
        res = score_task(agent("1", ISSUES, answer="Joe Smith"),
                         gold("1", ISSUES, requirements=["Joseph Smith", "Kevin Hart"]), judge=judge)
        assert [(q.task, q.left, q.right) for q in judge.asked] == [("requirement", "Joe Smith", "Joseph Smith")]
        assert res.partial_success_rate == 0.5 and res.requirements[0].source == "judge"
        no = score_task(agent("1", ISSUES, answer="Joe Smith"),
                        gold("1", ISSUES, requirements=["Joseph Smith", "Kevin Hart"]), judge=FakeJudge("NO_MATCH"))
        assert no.partial_success_rate == 0.0
        # without a judge the policy decides (0.6 < midpoint 0.7: not met), and it is reported
        pol = score_task(agent("1", ISSUES, answer="Joe Smith"),
                         gold("1", ISSUES, requirements=["Joseph Smith", "Kevin Hart"]))
        assert pol.partial_success_rate == 0.0 and pol.requirements[0].source == "policy"

    def test_walk_asks_the_pair_it_reaches(self):
        # Gold: open the Pittsburgh page, click History. Agent: the site (UNSURE vs gold 0, reached by the
        # walk), the page, History. Step success is 1.0 whatever the verdict: only the walk needs it.
        history = click("History")
        ag = agent("1", SITE, PAGE, history)
        gd = gold("1", PAGE, history)
        for verdict, first_dev in (("MATCH", 1), ("NO_MATCH", 0)):
            judge = FakeJudge(verdict)
            res = score_task(ag, gd, judge=judge)
            asked = [(q.task, q.left, q.right) for q in judge.asked]
            assert asked == [("step", SITE.short(), PAGE.short())]
            assert res.step_success_rate == 1.0 and res.recovery_rate == 1.0
            assert res.recovery.first_deviation == first_dev
            (u,) = res.unsure
            assert (u.agent, u.gold, u.source, u.verdict) == (0, 0, "judge", verdict)

    def test_repeat_questions(self):
        # Two clicks 20 px apart: the rules cannot tell whether the second repeats the first. The gold
        # path is a goto, so no step pair is UNSURE and only the repeat reaches the judge.
        ag = agent("1", at(100, 50), at(120, 60))
        gd = gold("1", PAGE)
        for verdict, repeats in (("MATCH", [1]), ("NO_MATCH", [])):
            judge = FakeJudge(verdict)
            res = score_task(ag, gd, judge=judge)
            assert [q.task for q in judge.asked] == ["repeat"]
            assert res.repeats == repeats
        # repeat_exempt kinds are not asked about
        judge = FakeJudge("MATCH")
        res = score_task(ag, gd, MetricConfig(repeat_exempt=["click"]), judge=judge)
        assert judge.asked == [] and res.repetitiveness_rate == 1.0

    def test_judge_failure_falls_back_to_policy_and_is_reported(self):
        ag, gd = agent("1", SITE), gold("1", PAGE)
        judge = FakeJudge(verdict=None)
        report = score([ag], [gd], MetricConfig(unsure_policy="accept"), judge=judge)
        t = report.tasks[0]
        assert t.step_success_rate == 1.0  # accept policy, never a silent NO_MATCH
        assert t.unsure and all(u.source == "policy" and "judge failed" in u.reason for u in t.unsure)
        assert report.judge.fallbacks >= 1
        rejected = score([ag], [gd], MetricConfig(unsure_policy="reject"), judge=FakeJudge(verdict=None))
        assert rejected.tasks[0].step_success_rate == 0.0

    def test_judge_verdict_overrides_policy(self):
        ag, gd = agent("1", SITE), gold("1", PAGE)
        assert score_task(ag, gd).step_success_rate == 1.0  # threshold policy: 0.7 >= midpoint
        assert score_task(ag, gd, judge=FakeJudge("NO_MATCH")).step_success_rate == 0.0
        assert score_task(ag, gd, MetricConfig(unsure_policy="reject"), judge=FakeJudge("MATCH")).step_success_rate \
            == 1.0

    def test_judge_stats_reach_the_report(self):
        judge = FakeJudge("MATCH")
        report = score([agent("1", SITE)], [gold("1", PAGE)], judge=judge)
        assert report.judge.model == "fake-judge-1" and report.judge.calls == judge.calls >= 1
        assert report.judge.tokens_in == 10 * len(judge.asked)
        assert report.judge.questions == len(judge.asked) >= 1
        assert report.judge.kind != "none"
        assert report.tasks[0].step_success_rate == 1.0

    def test_each_unsure_pair_is_asked_once(self):
        # Regression (fixed in e4e89af): the pair was put in one batch twice, by the step-success check
        # and by the recovery walk.
        judge = FakeJudge("MATCH")
        report = score([agent("1", SITE)], [gold("1", PAGE)], judge=judge)
        assert len(judge.asked) == 1
        assert report.judge.questions == 1


# --- Judge questions on controlled match matrices -----------------------------------------------------

def controlled(V):
    """Agent atoms 'a{i}' and gold steps 'g{j}' whose rule verdicts are V[i][j]: 1 MATCH, 0 NO_MATCH, -1 UNSURE."""
    V = np.asarray(V)
    n_a, n_g = V.shape
    ag = AgentTrajectory(task_id="t", steps=[
        AgentStep(action=Action(kind="click", target=Target(id=f"a{i}"))) for i in range(n_a)])
    gd = GoldTrajectory(task_id="t", steps=[
        GoldStep(text=f"g{j}", action=Action(kind="click", target=Target(id=f"g{j}"))) for j in range(n_g)])

    def fake(agent_atom, gold_action):
        v = V[int(agent_atom.target.id[1:]), int(gold_action.target.id[1:])]
        if v == 1:
            return Decision(verdict="MATCH", score=1.0, rule="test")
        if v == 0:
            return Decision(verdict="NO_MATCH", score=0.0, rule="test")
        return Decision(verdict="UNSURE", score=0.6, rule="test")

    return ag, gd, fake


def use_step_rules(mp: pytest.MonkeyPatch, fake) -> None:
    """Replace the step rule everywhere scoring may take it from (directly, or via rules.step_decisions)."""
    mp.setattr(rules, "match_step", fake)
    if hasattr(scoring, "match_step"):
        mp.setattr(scoring, "match_step", fake)


def cell(q: JudgeQuestion) -> tuple[int, int]:
    return int(q.left.split("[a")[1].rstrip("]")), int(q.right[1:])


class TestJudgeOnMatrices:
    def test_unsure_cell_only_step_success_needs(self, monkeypatch):
        # L = 0: the walk only looks at (i, h), never at (0, 1); step success 0 or 1/2 depends on it.
        ag, gd, fake = controlled([[0, -1], [0, 0]])
        use_step_rules(monkeypatch, fake)
        judge = FakeJudge("MATCH")
        res = score_task(ag, gd, MetricConfig(lookahead=0), judge=judge)
        assert [cell(q) for q in judge.asked] == [(0, 1)]
        assert res.step_success_rate == 0.5
        assert score_task(ag, gd, MetricConfig(lookahead=0)).step_success_rate == 0.0  # policy: 0.6 < 0.7

    def test_unsure_cell_no_metric_needs(self, monkeypatch):
        ag, gd, fake = controlled([[1, -1], [0, 1]])
        use_step_rules(monkeypatch, fake)
        judge = FakeJudge("MATCH")
        res = score_task(ag, gd, judge=judge)
        assert judge.asked == []
        assert (res.step_success_rate, res.recovery_rate, res.n_unsure) == (1.0, 1.0, 1)

    def test_walk_asks_round_by_round(self, monkeypatch):
        # Which cell the walk reaches next depends on the previous verdict.
        ag, gd, fake = controlled([[-1, 0, 0], [0, -1, 1], [0, 0, -1]])
        use_step_rules(monkeypatch, fake)
        cells = {(0, 0): "MATCH", (1, 1): "MATCH", (2, 2): "MATCH"}
        judge = FakeJudge(decide=lambda q: cells.get(cell(q), "NO_MATCH"))
        res = score_task(ag, gd, judge=judge)
        assert {cell(q) for q in judge.asked} == {(0, 0), (1, 1), (2, 2)}
        assert (res.recovery_rate, res.recovery.incidents) == (1.0, 0)
        assert res.step_success_rate == 1.0 and res.matches == [(0, 0), (1, 1), (2, 2)]

    def test_reference_preset_greedy_is_not_monotone_in_verdicts(self, monkeypatch):
        # The script's first-fit: an extra MATCH can lower step success (by design of the reference preset).
        ag, gd, fake = controlled([[-1, 1], [1, 0]])
        use_step_rules(monkeypatch, fake)
        ref = MetricConfig.from_preset("reference")
        assert score_task(ag, gd, ref).step_success_rate == 1.0
        assert score_task(ag, gd, ref, judge=FakeJudge("MATCH")).step_success_rate == 0.5
        assert score_task(ag, gd, judge=FakeJudge("MATCH")).step_success_rate == 1.0  # maximum matching

    def test_reference_preset_asks_the_judge_where_greedy_depends_on_it(self, monkeypatch):
        # Regression (fixed in 0a25b1b): the all-reject vs all-accept shortcut assumed greedy first-fit is
        # monotone, so the judge was never asked here and the policy decided.
        # all-reject and all-accept both give 1 pair, but accepting only (0, 2) gives 2.
        ag, gd, fake = controlled([[0, -1, -1, 0], [0, 1, 0, 0]])
        use_step_rules(monkeypatch, fake)
        judge = FakeJudge(decide=lambda q: "MATCH" if cell(q) == (0, 2) else "NO_MATCH")
        res = score_task(ag, gd, MetricConfig.from_preset("reference", unsure_policy="reject"), judge=judge)
        assert judge.asked, "the judge was never asked"
        assert res.step_success_rate == 0.5  # greedy on the judge's verdicts: g1 <- a1, g2 <- a0
