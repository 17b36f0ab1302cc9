"""With a judge, tasks are scored a few at a time; results keep input order and equal a sequential run."""

from __future__ import annotations

import threading
import time

import trajmetrics as tm
from trajmetrics.matching.decision import JudgeAnswer
from trajmetrics.model import Action, AgentStep, AgentTrajectory, GoldStep, GoldTrajectory, Target


class SlowJudge:
    """Says MATCH after a short wait, and records how many asks overlapped."""

    kind = "slow"

    def __init__(self, concurrency: int, max_calls: int | None = None) -> None:
        self.concurrency, self.max_calls = concurrency, max_calls
        self._lock = threading.Lock()
        self.in_flight = self.max_in_flight = self.asks = 0

    def ask(self, questions):
        with self._lock:
            self.in_flight += 1
            self.asks += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        time.sleep(0.02)
        with self._lock:
            self.in_flight -= 1
        return [JudgeAnswer(verdict="MATCH", reason="slow") for _ in questions]

    def stats(self):
        return {"calls": self.asks}


def _tasks(n: int):
    # The agent clicks at coordinates: UNSURE against the gold's named click, so every task asks the judge.
    agents, golds = [], []
    for k in range(n):
        gold_click = Action(kind="click", target=Target(role="link", name=f"Item {k}"))
        golds.append(GoldTrajectory(task_id=str(k), steps=[GoldStep(text=f"Click on 'Item {k}'", action=gold_click)]))
        steps = [AgentStep(action=Action(kind="click", target=Target(x=10.0 * k, y=5.0)))]
        if k % 3 == 0:
            steps.append(AgentStep(action=Action(kind="scroll", value="down")))
        agents.append(AgentTrajectory(task_id=str(k), steps=steps))
    return agents, golds


def test_tasks_overlap_and_keep_their_order():
    agents, golds = _tasks(12)
    judge = SlowJudge(concurrency=4)
    report = tm.score(agents, golds, judge=judge)
    assert [t.task_id for t in report.tasks] == [str(k) for k in range(12)]
    assert 1 < judge.max_in_flight <= 4
    assert all(t.step_success_rate == 1.0 for t in report.tasks)
    assert report.judge.questions == 12 and report.judge.kind == "slow"

    sequential = SlowJudge(concurrency=1)
    again = tm.score(agents, golds, judge=sequential)
    assert sequential.max_in_flight == 1
    assert again.to_dict()["tasks"] == report.to_dict()["tasks"]
    assert again.to_dict()["summary"] == report.to_dict()["summary"]


def test_a_call_budget_keeps_tasks_sequential():
    # which questions fit a budget must not depend on thread timing
    agents, golds = _tasks(6)
    judge = SlowJudge(concurrency=4, max_calls=100)
    tm.score(agents, golds, judge=judge)
    assert judge.max_in_flight == 1
