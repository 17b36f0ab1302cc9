"""The BrowserGym reader on hand-written task folders, good and broken."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from trajmetrics.formats import read_agent_runs
from trajmetrics.model import AgentTrajectory, ReadProblem


@pytest.fixture()
def bg(test_data: Path) -> Path:
    return test_data / "agent" / "browsergym"


def _by_id(items: list) -> dict[str, AgentTrajectory]:
    return {t.task_id: t for t in items if isinstance(t, AgentTrajectory)}


def test_reads_executed_steps_only(bg: Path) -> None:
    trajs = _by_id(list(read_agent_runs([bg])))
    assert sorted(trajs) == ["7", "8"]
    t = trajs["7"]
    assert t.format == "browsergym"
    assert t.intent == "What does the blue mug cost?"
    assert [s.action.kind for s in t.steps] == ["type", "click", "click", "answer"]  # n_steps = 4
    assert t.meta["unexecuted_action"] == "click('31')"  # generated in the last record, never run
    assert t.meta["n_steps"] == 4 and t.meta["reward"] == 1.0
    assert t.final_answer == "The blue mug costs $12.50"
    assert not t.aborted


def test_elements_thoughts_urls_errors(bg: Path) -> None:
    t = _by_id(list(read_agent_runs([bg])))["7"]
    typed, radio, go, answer = t.steps
    assert (typed.action.target.id, typed.action.target.role, typed.action.target.name) == ("12", "textbox", "Search")
    assert typed.action.value == "blue mug" and typed.action.submit is False
    assert (radio.action.target.role, radio.action.target.name) == ("radio", "Express shipping")
    assert go.action.target.name == "Go"
    # last_action_error of record n+1 is the error of action n
    assert go.error is not None and go.error.startswith("TimeoutError")
    assert typed.error is None and radio.error is None
    assert typed.thought == "Thinking about step 0."
    assert typed.url == "http://shop.test/page0"  # open_pages_urls[active_page_index]
    assert typed.planned is not None and typed.planned == typed.action
    assert typed.planned_raw == "fill('12', 'blue mug')" and typed.plan_source == "action_tag"
    assert answer.action.value == "The blue mug costs $12.50"


def test_aborted_task(bg: Path) -> None:
    t = _by_id(list(read_agent_runs([bg / "task_8"])))["8"]
    assert t.aborted and t.abort_reason and t.abort_reason.startswith("Exception uncaught")
    assert [s.action.kind for s in t.steps] == ["answer"]
    assert t.final_answer == "N/A"  # report_infeasible


def test_broken_tasks_become_problems_and_others_go_on(test_data: Path) -> None:
    items = list(read_agent_runs([test_data / "agent" / "browsergym_broken"]))
    good = [i for i in items if isinstance(i, AgentTrajectory)]
    problems = {p.task_id: p.message for p in items if isinstance(p, ReadProblem)}
    assert [t.task_id for t in good] == ["1"]
    assert set(problems) == {"2", "3", "4", "5"}
    assert "steps_info_1.json:line 1 column" in problems["2"] and "expected valid JSON, found truncated JSON" in problems["2"]
    assert "summary_info.json: n_steps: expected an integer, found string 'two'" in problems["3"]
    assert "summary_info.json: expected summary_info.json with n_steps, found no such file" in problems["4"]
    assert "steps_info_0.json:record 0: action: expected a string, found list" in problems["5"]


def test_empty_task_folder_and_missing_record(tmp_path: Path, bg: Path) -> None:
    run = tmp_path / "run"
    (run / "task_1").mkdir(parents=True)
    shutil.copytree(bg / "task_7", run / "task_2")
    (run / "task_2" / "steps_info_2.json").unlink()
    shutil.copytree(bg / "task_7", run / "task_3")
    (run / "task_3" / "steps_info_4.json").unlink()
    items = list(read_agent_runs([run]))
    problems = {p.task_id: p.message for p in items if isinstance(p, ReadProblem)}
    assert "found an empty task folder" in problems["1"]
    assert "steps_info_2.json: expected steps_info_0..4.json (summary_info.n_steps = 4), found no such file" in problems["2"]
    # without the record after the last action, the plan stands in for the environment's record
    t3 = _by_id(items)["3"]
    assert len(t3.steps) == 4 and t3.meta["executed_from_plan"] == [3]


def test_plan_that_differs_from_the_environment_record(tmp_path: Path, bg: Path) -> None:
    task = tmp_path / "task_9"
    shutil.copytree(bg / "task_7", task)
    record = json.loads((task / "steps_info_2.json").read_text())
    record["obs"]["last_action"] = "click('31')"  # the environment ran something else than step 1's plan
    (task / "steps_info_2.json").write_text(json.dumps(record))
    t = _by_id(list(read_agent_runs([task])))["9"]
    step = t.steps[1]
    assert step.planned is not None and step.planned.target.id == "20"
    assert step.action.target.id == "31" and step.action.target.name == "Kid's mug"
    assert t.meta["plan_differs"] == [1]


def test_bare_code_actions_as_agentlab_writes_them(tmp_path: Path, bg: Path) -> None:
    task = tmp_path / "task_5"
    shutil.copytree(bg / "task_8", task)
    record = json.loads((task / "steps_info_0.json").read_text())
    record["action"] = "click('13')"
    record["agent_info"] = {"think": "Press Go."}
    (task / "steps_info_0.json").write_text(json.dumps(record))
    step = _by_id(list(read_agent_runs([task])))["5"].steps[0]
    assert step.plan_source == "action_field" and step.planned is not None and step.planned.target.name == "Go"
    assert step.thought == "Press Go."


def test_agentlab_pickles_are_named_in_the_problem(tmp_path: Path) -> None:
    task = tmp_path / "task_3"
    task.mkdir()
    (task / "summary_info.json").write_text('{"n_steps": 1, "err_msg": null}')
    (task / "step_0.pkl.gz").write_bytes(b"\x1f\x8b")
    (problem,) = list(read_agent_runs([task]))
    assert isinstance(problem, ReadProblem)
    assert "found only AgentLab's pickled step_<n>.pkl.gz (not read: export them to JSON)" in problem.message
