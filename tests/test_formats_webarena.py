"""WebArena render HTML and the reference script's spreadsheet layout."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from trajmetrics.formats import detect_format, read_agent_runs
from trajmetrics.model import AgentTrajectory, ReadProblem, expand_atoms


@pytest.fixture()
def wa(test_data: Path) -> Path:
    return test_data / "agent" / "webarena"


def _by_id(items: list) -> dict[str, AgentTrajectory]:
    return {t.task_id: t for t in items if isinstance(t, AgentTrajectory)}


def test_render_steps(wa: Path) -> None:
    t = _by_id(list(read_agent_runs([wa / "render_5.html"])))["5"]
    assert t.format == "webarena_render"
    assert t.intent == "What is the price of the blue mug?"  # config_5.json beats the render header
    assert [s.action.kind for s in t.steps] == ["type", "click", "click", "answer"]
    typed = t.steps[0]
    assert (typed.action.target.id, typed.action.target.role, typed.action.target.name) == ("35", "searchbox", "Search")
    assert typed.action.value == "blue mug" and typed.action.submit  # the trailing newline of action2str
    assert [a.kind for a in expand_atoms(typed)] == ["type", "press"]
    assert typed.planned_raw == "type [35] [blue mug] [1]" and typed.plan_source == "last_block"
    assert typed.planned is not None and typed.planned.submit and typed.planned.target.id == "35"
    assert typed.url == "http://shop.test/"
    assert typed.thought is not None and typed.thought.startswith("Let's think step-by-step.")
    # the model text is not escaped by the renderer: its tags come back as text
    assert "<b>mug</b>" in (t.steps[1].thought or "")
    assert t.steps[1].action.target.name == "Blue \ue600 mug"
    missing = t.steps[2]
    assert missing.action.target.id == "99" and missing.error == "no matching element found"
    assert t.final_answer == "$12.50" and not t.aborted


def test_render_first_block(wa: Path) -> None:
    t = _by_id(list(read_agent_runs([wa / "render_5.html"], plan_block="first")))["5"]
    assert t.steps[0].planned_raw == "click [40]" and t.steps[0].plan_source == "first_block"


def test_render_early_stop_and_interrupted(wa: Path) -> None:
    trajs = _by_id(list(read_agent_runs([wa])))
    assert sorted(trajs) == ["5", "6", "7"]
    six = trajs["6"]
    assert six.intent == "Open the orders page"  # no config_6.json: the render header
    assert [s.early_stop for s in six.steps] == [False, False, True]
    assert six.steps[1].action.kind == "other" and six.steps[1].planned is None  # "none": no parsable action
    assert six.steps[2].planned is None and six.steps[2].action.kind == "other"
    assert six.final_answer is None and not six.aborted
    assert six.meta["early_stop"] == "Early stop: Failed to parse actions for 3 times"
    seven = trajs["7"]
    assert seven.aborted and "without a stop action" in (seven.abort_reason or "")
    assert seven.steps[0].action.value == "Meta+Enter"


def test_render_without_steps(test_data: Path) -> None:
    (problem,) = list(read_agent_runs([test_data / "agent" / "webarena_broken"]))
    assert isinstance(problem, ReadProblem) and problem.task_id == "9"
    assert "div.parsed_action: expected one per step" in problem.message


def _check_sheet(items: list) -> None:
    trajs = _by_id(items)
    t12 = trajs["12"]
    assert t12.format == "reference_sheet"
    assert [s.action.kind for s in t12.steps] == ["type", "click", "answer"]  # sorted by Step No
    assert t12.steps[0].action.submit and t12.steps[0].action.target.role == "searchbox"
    assert t12.steps[1].planned_raw == "click [41]"  # the last block, as the script
    assert t12.final_answer == "$12.50"
    t13 = trajs["13"]
    assert [s.planned_raw for s in t13.steps] == [None, "scroll [down]", "click [8]"]
    assert [s.early_stop for s in t13.steps] == [False, False, True]
    assert any("empty Task No" in r for r in t13.meta["repairs"])
    assert t13.final_answer is None


def test_reference_sheet_csv(test_data: Path) -> None:
    path = test_data / "agent" / "reference_sheet.csv"
    assert detect_format(path) == "reference_sheet"
    _check_sheet(list(read_agent_runs([path])))


def test_reference_sheet_xlsx(tmp_path: Path, test_data: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    with open(test_data / "agent" / "reference_sheet.csv", newline="", encoding="utf-8") as fh:
        for i, row in enumerate(csv.reader(fh)):
            # spreadsheets hand over numbers: Task No as a float, Step No as an int
            if i and row[0]:
                row[0] = float(row[0])
            if i:
                row[1] = int(row[1])
            ws.append(row)
    path = tmp_path / "agent.xlsx"
    wb.save(path)
    assert detect_format(path) == "reference_sheet"
    _check_sheet(list(read_agent_runs([path])))


def test_reference_sheet_plan_first_and_blocks(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text(
        "Task No.,Step No.,Text,Next Step\n"
        "1,1,```click [1]``` then ```click [2]```,click [2]\n"
        "2,x,no plan,click [3]\n"
        "1,2,```stop [a]```,\n"
        "2,y,no plan,click [4]\n"
    )
    trajs = _by_id(list(read_agent_runs([path], "reference_sheet", plan_block="first")))
    assert trajs["1"].steps[0].planned_raw == "click [1]"
    assert trajs["1"].meta["missing_next_step"] == [1]
    assert any("not numeric" in r for r in trajs["2"].meta["repairs"])
    assert any("again after other tasks" in r for r in trajs["1"].meta["repairs"])


def test_reference_sheet_bad_header(test_data: Path) -> None:
    path = test_data / "agent" / "reference_sheet_bad.csv"
    (problem,) = list(read_agent_runs([path], "reference_sheet"))
    assert isinstance(problem, ReadProblem)
    assert "reference_sheet_bad.csv:header: expected columns Task No, Step No, Text, Next Step, found ['Task', 'Model output']" in problem.message
