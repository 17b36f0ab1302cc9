"""Hand-made cases for the five metrics (METRICS.md section 3), aggregation (section 4) and score_task.

Match matrices are written as one string per agent atom, one character per gold step ("1" = match),
so ``["01", "10"]`` means atom 0 fulfils gold step 1 and atom 1 fulfils gold step 0.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from trajmetrics import (
    Action,
    AgentStep,
    AgentTrajectory,
    GoldStep,
    GoldTrajectory,
    MetricConfig,
    Target,
    score_task,
)
from trajmetrics.metrics import (
    element_accuracy,
    greedy_matching,
    maximum_matching,
    ordered_matching,
    paired_difference,
    partial_success_rate,
    recovery_walk,
    repeated_steps,
    repetitiveness_rate,
    step_success_rate,
    summarise,
)


def matrix(rows: list[str]) -> np.ndarray:
    n_g = len(rows[0]) if rows else 0
    return np.array([[c == "1" for c in r] for r in rows], dtype=bool).reshape(len(rows), n_g)


def walk(rows: list[str], n_gold: int | None = None, **kw):
    m = matrix(rows)
    n_g = m.shape[1] if n_gold is None else n_gold
    return recovery_walk(len(rows), n_g, lambda i, j: bool(m[i, j]), **kw)


# --- 3.1 Recovery rate ------------------------------------------------------------------------------

class TestRecovery:
    def test_perfect_track(self):
        r = walk(["100", "010", "001"])
        assert (r.rate, r.incidents, r.recoveries, r.mean_cost, r.first_deviation) == (1.0, 0, 0, None, None)
        assert r.gold_fulfilled == 3

    def test_skip_ahead_is_an_immediate_recovery_of_cost_1(self):
        # Atom 0 skips gold step 0 and does gold step 1 directly.
        r = walk(["010", "001"], lookahead=5)
        assert (r.incidents, r.recoveries, r.rate, r.mean_cost) == (1, 1, 1.0, 1.0)
        (ev,) = r.events
        assert (ev.start, ev.end, ev.gold, ev.rejoined_gold, ev.cost, ev.recovered) == (0, 0, 0, 1, 1, True)
        assert r.first_deviation == 0 and r.gold_fulfilled == 3

    def test_skip_ahead_needs_lookahead(self):
        # The script (L = 0): the same agent never gets back, because only gold step 0 can end it.
        r = walk(["010", "001"], lookahead=0)
        assert (r.incidents, r.recoveries, r.rate, r.mean_cost) == (1, 0, 0.0, None)
        assert r.gold_fulfilled == 0

    def test_detour_cost_counts_atoms_from_start_inclusive(self):
        # Gold g0 g1; the agent does g0, wanders for 2 atoms, then does g1 at atom 3.
        r = walk(["10", "00", "00", "01"])
        assert (r.incidents, r.recoveries, r.rate) == (1, 1, 1.0)
        (ev,) = r.events
        assert (ev.start, ev.end, ev.cost, ev.rejoined_gold) == (1, 3, 3, 1)
        assert r.mean_cost == 3.0 and r.first_deviation == 1

    def test_mean_cost_over_two_recoveries(self):
        # skip-ahead (cost 1) then a detour of 2 atoms (cost 2): mean 1.5
        r = walk(["0100", "0000", "0010", "0001"], lookahead=1)
        assert (r.incidents, r.recoveries, r.mean_cost) == (2, 2, 1.5)
        assert [e.cost for e in r.events] == [1, 2]

    def test_script_example_from_docstring(self):
        r = walk(["10", "00", "01"], lookahead=0)
        assert (r.incidents, r.recoveries, r.rate, r.mean_cost) == (1, 1, 1.0, 2.0)

    def test_skip_ahead_respects_lookahead_bound(self):
        # On-track at h = 0 with L = 2: gold step 2 (= h + L) can be skipped to, step 3 (h + L + 1) cannot.
        reach = walk(["00100", "00010", "00001"], lookahead=2)
        assert reach.recoveries == 1 and reach.events[0].rejoined_gold == 2 and reach.events[0].cost == 1
        beyond = walk(["00010", "00001"], lookahead=2)
        assert beyond.recoveries == 0 and beyond.incidents == 1 and beyond.rate == 0.0

    def test_deviating_window_is_h_to_h_plus_l(self):
        # Deviating from h = 0 with L = 2: a later atom doing gold step 2 recovers, gold step 3 does not.
        ok = walk(["00000", "00100"], lookahead=2)
        assert ok.recoveries == 1 and ok.events[0].rejoined_gold == 2 and ok.events[0].cost == 2
        out = walk(["00000", "00010"], lookahead=2)
        assert out.recoveries == 0 and out.rate == 0.0

    def test_smallest_j_is_taken(self):
        r = walk(["0110", "0001"], lookahead=5)
        assert r.events[0].rejoined_gold == 1
        # atom 1 matches gold 3 only; at h = 2 that is a second skip-ahead
        assert [(e.gold, e.rejoined_gold) for e in r.events] == [(0, 1), (2, 3)]
        assert (r.incidents, r.recoveries, r.gold_fulfilled) == (2, 2, 4)

    def test_atoms_after_the_last_gold_step_are_ignored(self):
        r = walk(["10", "01", "00", "00", "00"])
        assert (r.rate, r.incidents) == (1.0, 0)

    @pytest.mark.parametrize(
        "unfinished, incidents, rate",
        [("one", 1, 0.0), ("each", 2, 0.0), ("none", 0, 1.0)],
    )
    def test_unfinished_on_track(self, unfinished, incidents, rate):
        # Gold g0 g1 g2; the agent does g0 and stops: two gold steps left while on-track.
        r = walk(["100"], unfinished=unfinished)
        assert (r.incidents, r.recoveries, r.rate) == (incidents, 0, rate)
        assert all(e.kind == "unfinished" and e.start == 1 for e in r.events)
        if unfinished == "each":
            assert [e.gold for e in r.events] == [1, 2]

    @pytest.mark.parametrize("unfinished, rate", [("one", 1 / 2), ("each", 1 / 4), ("none", 1.0)])
    def test_unfinished_after_a_recovery(self, unfinished, rate):
        # Gold g0..g3: a detour then g0, then the agent stops with 3 gold steps left.
        r = walk(["0000", "1000"], unfinished=unfinished)
        assert r.recoveries == 1
        assert r.rate == pytest.approx(rate)

    def test_ending_while_deviating_adds_no_unfinished_incident(self):
        for unfinished in ("one", "each", "none"):
            r = walk(["100", "000"], unfinished=unfinished)
            assert (r.incidents, r.recoveries, r.rate) == (1, 0, 0.0)
            assert [e.kind for e in r.events] == ["deviation"]

    def test_zero_deviation_one_and_skip(self):
        assert walk(["10", "01"], zero_deviation="one").rate == 1.0
        assert walk(["10", "01"], zero_deviation="skip").rate is None
        # skip only concerns tasks without incidents
        assert walk(["00", "01"], zero_deviation="skip").rate == 1.0
        # unfinished "none" with an early stop and no deviation: no incident at all
        assert walk(["10"], unfinished="none", zero_deviation="skip").rate is None

    def test_empty_gold_is_not_applicable(self):
        assert walk([], n_gold=0).rate is None
        assert recovery_walk(3, 0, lambda i, j: True).rate is None

    def test_empty_agent(self):
        assert walk([], n_gold=3).rate == 0.0
        assert walk([], n_gold=3, unfinished="each").incidents == 3

    def test_match_called_only_where_the_walk_looks(self):
        asked: list[tuple[int, int]] = []

        def m(i, j):
            asked.append((i, j))
            return (i, j) in {(0, 0), (1, 1)}

        recovery_walk(4, 2, m, lookahead=1)
        assert asked == [(0, 0), (1, 1)]  # atoms 2, 3 come after the last gold step

    def test_lookahead_is_not_monotone(self):
        # Larger L is not always kinder: skipping ahead early can strand the walk. Documented, not a bug.
        rows = ["0010", "1000", "0010"]
        assert walk(rows, lookahead=1).rate == pytest.approx(2 / 3)
        assert walk(rows, lookahead=2).rate == pytest.approx(1 / 2)


# --- 3.2 Repetitiveness -------------------------------------------------------------------------------

class TestRepetitiveness:
    def test_only_immediate_repeats_count(self):
        seq = ["A", "B", "B", "C", "A"]
        reps = repeated_steps(["click"] * 5, lambda i: seq[i] == seq[i - 1])
        assert reps == [2]
        assert repetitiveness_rate(5, len(reps)) == pytest.approx(0.8)

    def test_formula_and_edges(self):
        assert repetitiveness_rate(0, 0) is None
        assert repetitiveness_rate(1, 0) == 1.0
        assert repetitiveness_rate(4, 3) == pytest.approx(0.25)

    def test_repeat_exempt_kinds_are_not_counted_nor_asked(self):
        kinds = ["scroll", "scroll", "scroll", "click", "click"]
        asked: list[int] = []

        def is_rep(i):
            asked.append(i)
            return True

        assert repeated_steps(kinds, is_rep) == [1, 2, 3, 4]
        asked.clear()
        assert repeated_steps(kinds, is_rep, exempt=("scroll",)) == [3, 4]
        assert asked == [3, 4]

    def test_score_task_abbca(self):
        def click(name, id_):
            return AgentStep(action=Action(kind="click", target=Target(id=id_, role="link", name=name)))

        agent = AgentTrajectory(task_id="t", steps=[
            click("Issues", "12"), click("Merge requests", "13"), click("Merge requests", "44"),
            click("Milestones", "15"), click("Issues", "12"),
        ])
        gold = GoldTrajectory(task_id="t", steps=[GoldStep(text="Click 'Issues'", action=agent.steps[0].action)])
        res = score_task(agent, gold)
        assert res.repeats == [2]  # same name, new element id after re-render: still a repeat
        assert res.repetitiveness_rate == pytest.approx(0.8)

    def test_score_task_repeat_exempt(self):
        scroll = AgentStep(action=Action(kind="scroll", value="down"))
        agent = AgentTrajectory(task_id="t", steps=[scroll, scroll, scroll, scroll])
        gold = GoldTrajectory(task_id="t", steps=[GoldStep(text="Scroll down", action=scroll.action)])
        assert score_task(agent, gold).repetitiveness_rate == pytest.approx(0.25)
        cfg = MetricConfig(repeat_exempt=("scroll",))
        assert score_task(agent, gold, cfg).repetitiveness_rate == 1.0
        assert score_task(agent, gold, cfg).repeats == []


# --- 3.3 Step success ------------------------------------------------------------------------------------

class TestStepSuccess:
    def test_maximum_beats_greedy_first_fit(self):
        # atom 0 fulfils gold 0 and gold 1, atom 1 only gold 0: first-fit gives atom 0 to gold 0.
        m = matrix(["11", "10"])
        assert greedy_matching(m) == [(0, 0)]
        assert sorted(maximum_matching(m)) == [(0, 1), (1, 0)]
        assert step_success_rate(greedy_matching(m), 2) == 0.5
        assert step_success_rate(maximum_matching(m), 2) == 1.0

    def test_ordered_vs_unordered(self):
        # The agent does gold 1 before gold 0.
        m = matrix(["01", "10"])
        assert len(ordered_matching(m)) == 1
        assert len(maximum_matching(m)) == 2

    def test_ordered_is_lcs(self):
        m = matrix(["1000", "0010", "0100", "0001"])
        pairs = ordered_matching(m)
        assert len(pairs) == 3
        assert all(g1 < g2 and a1 < a2 for (g1, a1), (g2, a2) in zip(pairs, pairs[1:]))

    def test_greedy_ordered(self):
        m = matrix(["01", "10"])
        assert greedy_matching(m, ordered=True) == [(0, 1)]  # gold 1 has no atom after atom 1

    def test_empty_gold_and_no_match(self):
        assert step_success_rate([], 0) is None
        assert step_success_rate([], 3) == 0.0
        assert maximum_matching(matrix(["000", "000"])) == []

    def test_ordered_ties_prefer_higher_weight(self):
        m = matrix(["1", "1"])
        w = np.array([[0.86], [1.0]])
        assert ordered_matching(m, w) == [(0, 1)]
        assert ordered_matching(m) == [(0, 0)]  # no weights: earliest atom

    def test_score_task_greedy_undercounts_and_order(self):
        # Gold: "Scroll the page" (no direction), then "Scroll down". The agent scrolls down, then up.
        gold = GoldTrajectory(task_id="t", steps=[
            GoldStep(text="Scroll the page", action=Action(kind="scroll")),
            GoldStep(text="Scroll down", action=Action(kind="scroll", value="down")),
        ])
        agent = AgentTrajectory(task_id="t", steps=[
            AgentStep(action=Action(kind="scroll", value="down")),
            AgentStep(action=Action(kind="scroll", value="up")),
        ])
        res = score_task(agent, gold)
        assert res.step_success_rate == 1.0
        assert sorted(res.matches) == [(0, 1), (1, 0)]
        assert res.step_success_rate_ordered == 0.5
        ordered = score_task(agent, gold, MetricConfig(step_order="ordered"))
        assert ordered.step_success_rate == 0.5 and ordered.step_success_rate_ordered == 0.5
        ref = score_task(agent, gold, MetricConfig.from_preset("reference"))
        assert ref.step_success_rate == 0.5 and ref.matches == [(0, 0)]


# --- 3.4 Partial success ---------------------------------------------------------------------------------

class TestPartialSuccess:
    def test_counting(self):
        assert partial_success_rate([True, False, True, True]) == 0.75
        assert partial_success_rate([False, False]) == 0.0
        assert partial_success_rate([True]) is None
        assert partial_success_rate([]) is None

    def _gold(self, reqs):
        click = Action(kind="click", target=Target(name="Reports"))
        return GoldTrajectory(task_id="t", intent="Who spent the most?", requirements=reqs,
                              steps=[GoldStep(text="Click 'Reports'", action=click)])

    def _agent(self, answer):
        steps = [AgentStep(action=Action(kind="click", target=Target(name="Reports")))]
        if answer is not None:
            steps.append(AgentStep(action=Action(kind="answer", value=answer)))
        return AgentTrajectory(task_id="t", steps=steps)

    def test_score_task_requirements(self):
        gold = self._gold(["Kevin Hart", "$1,234.00", "Pittsburgh"])
        res = score_task(self._agent("Kevin Hart spent 1234 dollars in total."), gold)
        assert [r.met for r in res.requirements] == [True, True, False]
        assert res.partial_success_rate == pytest.approx(2 / 3)
        assert res.final_answer == "Kevin Hart spent 1234 dollars in total."

    def test_no_final_answer_completes_nothing(self):
        res = score_task(self._agent(None), self._gold(["Kevin Hart", "1234"]))
        assert res.final_answer is None
        assert res.partial_success_rate == 0.0

    def test_fewer_than_two_requirements_is_not_applicable(self):
        assert score_task(self._agent("Kevin Hart"), self._gold(["Kevin Hart"])).partial_success_rate is None
        assert score_task(self._agent("Kevin Hart"), self._gold([])).partial_success_rate is None

    def test_explicit_final_answer_wins_over_last_answer_action(self):
        agent = self._agent("nothing").model_copy(update={"final_answer": "Kevin Hart, 1234"})
        assert score_task(agent, self._gold(["Kevin Hart", "1234"])).partial_success_rate == 1.0


# --- 3.5 Element accuracy --------------------------------------------------------------------------------

class TestElementAccuracy:
    def test_rate_over_considered_steps(self):
        r = element_accuracy([True, False, True, True])
        assert (r.rate, r.considered, r.equal, r.no_plan, r.early_stop_at) == (0.75, 4, 3, 0, None)

    def test_early_stop_cuts_at_and_after(self):
        r = element_accuracy([True, False, False, False], [False, False, True, False])
        assert (r.considered, r.equal, r.early_stop_at) == (2, 1, 2)
        assert r.rate == 0.5

    def test_no_plan_is_a_mismatch_counted_separately(self):
        r = element_accuracy([True, None, False, True])
        assert (r.considered, r.equal, r.no_plan) == (4, 2, 1)
        assert r.rate == 0.5

    def test_no_plan_at_all_is_not_applicable(self):
        assert element_accuracy([None, None]).rate is None
        assert element_accuracy([]).rate is None
        # the only planned step is after the early stop
        assert element_accuracy([None, True], [False, True]).rate is None

    def test_score_task(self):
        def step(kind, id_, name, value=None, planned=True, early=False, plan_id=None):
            a = Action(kind=kind, target=Target(id=id_, name=name), value=value)
            p = a.model_copy(update={"target": Target(id=plan_id or id_, name=name)}) if planned else None
            return AgentStep(action=a, planned=p, early_stop=early)

        agent = AgentTrajectory(task_id="t", steps=[
            step("click", "12", "Issues"),
            step("type", "30", "Search", "bug"),
            step("click", "14", "Labels", plan_id="41"),     # planned a different element
            step("click", "15", "Milestones", planned=False),  # no plan
            step("answer", None, None, "Early stop: same action", early=True),
            step("click", "16", "Wiki"),
        ])
        gold = GoldTrajectory(task_id="t", steps=[GoldStep(text="Click Issues", action=agent.steps[0].action)])
        res = score_task(agent, gold)
        ea = res.element_accuracy
        assert (ea.considered, ea.equal, ea.no_plan, ea.early_stop_at) == (4, 2, 1, 4)
        assert res.element_accuracy_rate == 0.5

    def test_score_task_no_plan_at_all(self):
        a = Action(kind="click", target=Target(id="1", name="Issues"))
        agent = AgentTrajectory(task_id="t", steps=[AgentStep(action=a), AgentStep(action=a)])
        gold = GoldTrajectory(task_id="t", steps=[GoldStep(text="Click Issues", action=a)])
        assert score_task(agent, gold).element_accuracy_rate is None


# --- 4. Aggregation ---------------------------------------------------------------------------------------

class TestAggregation:
    def test_mean_sample_std_n_na(self):
        s = summarise([1.0, 0.5, None, 0.0], samples=0)
        assert (s.mean, s.n, s.n_na, s.ci95) == (0.5, 3, 1, None)
        assert s.std == pytest.approx(0.5)  # sample std (ddof = 1) of 0, 0.5, 1

    def test_none_is_never_counted_as_zero(self):
        s = summarise([1.0, None, None], samples=0)
        assert (s.mean, s.n, s.n_na, s.std) == (1.0, 1, 2, None)

    def test_all_none(self):
        s = summarise([None, None])
        assert (s.mean, s.std, s.n, s.n_na, s.ci95) == (None, None, 0, 2, None)
        assert summarise([]).n == 0

    def test_seeded_ci_is_reproducible(self):
        vals = [0.0, 0.25, 1.0, 0.5, 0.75, 1.0, 0.2]
        a = summarise(vals, samples=500, seed=7)
        b = summarise(vals, samples=500, seed=7)
        assert a == b
        lo, hi = a.ci95
        assert 0.0 <= lo <= a.mean <= hi <= 1.0
        assert lo < hi
        assert summarise(vals, samples=500, seed=8).ci95 != a.ci95

    def test_single_value_ci(self):
        assert summarise([0.4], samples=100).ci95 == (0.4, 0.4)

    def test_mean_never_inf_or_nan(self):
        s = summarise([0.0, 1.0, None], samples=50)
        assert math.isfinite(s.mean) and math.isfinite(s.std)

    def test_paired_difference(self):
        a = {"1": 0.5, "2": 1.0, "3": None, "4": 0.2}
        b = {"1": 1.0, "2": 0.5, "3": 1.0, "5": 0.0, "6": None}
        d = paired_difference(a, b, samples=0)
        assert (d.mean_diff, d.n, d.ci95) == (0.0, 2, None)
        d2 = paired_difference({"1": 0.0, "2": 0.5, "3": 0.5}, {"1": 1.0, "2": 1.0, "3": 0.5}, samples=300, seed=1)
        assert d2.mean_diff == pytest.approx(0.5) and d2.n == 3
        assert d2.ci95 == paired_difference({"3": 0.5, "2": 0.5, "1": 0.0},
                                            {"2": 1.0, "1": 1.0, "3": 0.5}, samples=300, seed=1).ci95
        assert d2.ci95[0] <= 0.5 <= d2.ci95[1]

    def test_paired_difference_nothing_in_common(self):
        d = paired_difference({"1": 0.5}, {"2": 0.5})
        assert (d.mean_diff, d.n, d.ci95) == (None, 0, None)


# --- score_task on hand-made trajectories -----------------------------------------------------------------

SEARCH_BOX = Target(id="5", role="textbox", name="Search")


def _gold(*steps: tuple[str, Action]) -> GoldTrajectory:
    return GoldTrajectory(task_id="t", intent="Find running shoes",
                          steps=[GoldStep(text=t, action=a) for t, a in steps])


def _agent(*actions: Action) -> AgentTrajectory:
    return AgentTrajectory(task_id="t", steps=[AgentStep(action=a, planned=a) for a in actions])


class TestScoreTask:
    def test_composite_type_fulfils_type_and_press_enter(self):
        gold = _gold(
            ("Type 'running shoes' in the search bar", Action(kind="type", target=Target(name="Search"),
                                                              value="running shoes")),
            ("Press enter", Action(kind="press", value="Enter")),
        )
        agent = _agent(Action(kind="type", target=SEARCH_BOX, value="running shoes", submit=True,
                              raw="type [5] [running shoes] [1]"))
        res = score_task(agent, gold)
        assert (res.n_steps, res.n_atoms, res.atom_step) == (1, 2, [0, 0])
        assert res.matches == [(0, 0), (1, 1)]
        assert res.step_success_rate == 1.0 and res.step_success_rate_ordered == 1.0
        assert res.recovery_rate == 1.0 and res.recovery.incidents == 0
        assert res.repetitiveness_rate == 1.0 and res.element_accuracy_rate == 1.0

    def test_type_without_submit_leaves_press_enter_unfulfilled(self):
        gold = _gold(
            ("Type 'running shoes' in the search bar", Action(kind="type", target=Target(name="Search"),
                                                              value="running shoes")),
            ("Press enter", Action(kind="press", value="Enter")),
        )
        res = score_task(_agent(Action(kind="type", target=SEARCH_BOX, value="running shoes")), gold)
        assert res.step_success_rate == 0.5
        assert res.recovery_rate == 0.0 and res.recovery.events[0]["kind"] == "unfinished"

    def test_enter_atom_fulfils_click_search_button(self):
        gold = _gold(
            ("Type 'running shoes' into the search box", Action(kind="type", target=Target(name="Search"),
                                                                value="running shoes")),
            ("Click the 'Search' button", Action(kind="click", target=Target(role="button", name="Search"))),
        )
        res = score_task(_agent(Action(kind="type", target=SEARCH_BOX, value="running shoes", submit=True)), gold)
        assert res.step_success_rate == 1.0 and res.recovery_rate == 1.0

    def test_click_go_button_fulfils_press_enter(self):
        gold = _gold(
            ("Type Pittsburgh", Action(kind="type", target=Target(name="Search"), value="Pittsburgh")),
            ("Press Enter", Action(kind="press", value="Enter")),
        )
        agent = _agent(Action(kind="type", target=SEARCH_BOX, value="Pittsburgh"),
                       Action(kind="click", target=Target(id="9", role="button", name="Go")))
        res = score_task(agent, gold)
        assert res.step_success_rate == 1.0 and res.matches == [(0, 0), (1, 1)]

    def test_click_cancel_does_not_fulfil_press_enter(self):
        gold = _gold(("Press Enter", Action(kind="press", value="Enter")))
        res = score_task(_agent(Action(kind="click", target=Target(role="button", name="Cancel"))), gold)
        assert res.step_success_rate == 0.0

    def test_click_dropdown_option_fulfils_select(self):
        gold = _gold(
            ("Open the Country dropdown", Action(kind="click", target=Target(role="combobox", name="Country"))),
            ("Select 'Canada'", Action(kind="select", target=Target(name="Country"), value="Canada")),
        )
        agent = _agent(Action(kind="click", target=Target(id="40", role="combobox", name="Country")),
                       Action(kind="click", target=Target(id="77", role="option", name="Canada")))
        res = score_task(agent, gold)
        assert res.step_success_rate == 1.0 and res.recovery_rate == 1.0

    def test_wrong_option_does_not_fulfil_select(self):
        gold = _gold(("Select 'Canada'", Action(kind="select", target=Target(name="Country"), value="Canada")))
        res = score_task(_agent(Action(kind="click", target=Target(role="option", name="Mexico"))), gold)
        assert res.step_success_rate == 0.0

    def test_detour_through_score_task(self):
        issues = Action(kind="click", target=Target(role="link", name="Issues"))
        labels = Action(kind="click", target=Target(role="link", name="Labels"))
        gold = _gold(("Click 'Issues'", issues), ("Click 'Labels'", labels))
        agent = _agent(issues,
                       Action(kind="click", target=Target(role="link", name="Wiki")),
                       Action(kind="go_back"),
                       labels)
        res = score_task(agent, gold)
        assert res.recovery_rate == 1.0
        assert (res.recovery.incidents, res.recovery.recoveries, res.recovery.mean_cost) == (1, 1, 3.0)
        assert res.recovery.first_deviation == 1
        assert res.step_success_rate == 1.0
        assert res.matches == [(0, 0), (1, 3)]

    def test_task_values_do_not_depend_on_config_they_do_not_use(self):
        issues = Action(kind="click", target=Target(role="link", name="Issues"))
        gold = _gold(("Click 'Issues'", issues))
        a = score_task(_agent(issues), gold, MetricConfig(bootstrap_samples=0, seed=3))
        b = score_task(_agent(issues), gold)
        assert a == b
