"""End to end: every supported agent format scores its sample through the Python API (`trajmetrics.score`)
and the CLI (`trajmetrics score ... --format json|csv`), with the facts a user would check in the report.

Real samples come from ../shared/data (the `shared_data` fixture: skipped on a fresh machine, failed when
TRAJMETRICS_SHARED_DATA is set and the data is absent). Golds for tasks the human xlsx does not cover are
hand-written in tests/data/e2e/ (steps given as text only: the gold reader parses them). The small local
fixtures in tests/data/agent/ cover the formats with no real sample here. 
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import trajmetrics as tm
from trajmetrics.cli.main import cli
from trajmetrics.formats import read_agent_runs
from trajmetrics.gold import read_gold
from trajmetrics.matching.decision import JudgeAnswer, JudgeQuestion
from trajmetrics.metrics import METRIC_NAMES
from trajmetrics.model import AgentTrajectory, trajectory_atoms

DATA = Path(__file__).resolve().parent / "data"
E2E = DATA / "e2e"
AGENT = DATA / "agent"
LOCAL_GOLD = E2E / "gold_agent_fixtures.jsonl"
TOOL_MAP = AGENT / "tool_calls" / "tool_map.json"

shared = pytest.mark.shared_data  # with the shared_data fixture: these need ../shared/data

# every metric but partial success applies to any task with gold steps and agent steps
STEP_METRICS = ("recovery_rate", "repetitiveness_rate", "step_success_rate", "step_success_rate_ordered")


# --- helpers -----------------------------------------------------------------------------------------

def cli_score(*args: str, expect: int = 0):
    """`trajmetrics score ARGS` through CliRunner; checks the exit code, returns the result."""
    res = CliRunner().invoke(cli, ["score", *map(str, args)], catch_exceptions=False)
    assert res.exit_code == expect, (res.exit_code, res.stderr[-2000:])
    return res


def cli_json(*args: str, expect: int = 0) -> dict[str, Any]:
    return json.loads(cli_score(*args, "--format", "json", expect=expect).stdout)


def by_id(tasks) -> dict[str, Any]:
    return {(t["task_id"] if isinstance(t, dict) else t.task_id): t for t in tasks}


def as_json(report: tm.Report) -> dict[str, Any]:
    return json.loads(json.dumps(report.to_dict()))


def assert_cli_equals_api(report: tm.Report, data: dict[str, Any]) -> None:
    """The CLI's json report and the API's report agree task by task and in the summary."""
    api = as_json(report)
    assert list(by_id(data["tasks"])) == list(by_id(api["tasks"]))
    for tid, task in by_id(data["tasks"]).items():
        ref = by_id(api["tasks"])[tid]
        for key in (*METRIC_NAMES, "status", "matches", "repeats", "final_answer"):
            expected = pytest.approx(ref[key]) if isinstance(ref[key], float) else ref[key]
            assert task[key] == expected, (tid, key)
    for m in METRIC_NAMES:
        assert data["summary"][m] == api["summary"][m], m
    assert data["problems"] == api["problems"]


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


class AlwaysMatchJudge:
    """A judge (trajmetrics.matching.decision.Judge) that says MATCH to everything and records the questions."""

    def __init__(self) -> None:
        self.questions: list[JudgeQuestion] = []

    def ask(self, questions: list[JudgeQuestion]) -> list[JudgeAnswer]:
        self.questions.extend(questions)
        return [JudgeAnswer(verdict="MATCH", reason="always MATCH") for _ in questions]

    def stats(self) -> dict[str, Any]:
        return {"calls": len(self.questions), "model": "always-match"}


def unsure_questions(report: tm.Report, trajs: dict[str, AgentTrajectory], gold) -> set[tuple[str, str, str]]:
    """(task, left, right) of every UNSURE pair a rules-only report lists, as a judge would be asked it."""
    out = set()
    for t in report.tasks:
        traj, g = trajs[t.task_id], gold.tasks[t.task_id]
        atoms, _ = trajectory_atoms(traj)
        for u in t.unsure:
            if u.question == "step":
                out.add(("step", atoms[u.agent].short(), g.steps[u.gold].text))
            elif u.question == "repeat":
                out.add(("repeat", traj.steps[u.agent].action.short(), traj.steps[u.gold].action.short()))
            else:
                out.add(("requirement", t.final_answer or "", g.requirements[u.gold]))
    return out


def asked(judge: AlwaysMatchJudge) -> set[tuple[str, str, str]]:
    return {(q.task, q.left, q.right) for q in judge.questions}


# --- gold fixtures -----------------------------------------------------------------------------------

def test_hand_written_golds_read_cleanly_and_text_only_steps_are_parsed():
    for path in sorted(E2E.glob("*.jsonl")):
        gold = read_gold(path)
        assert gold.tasks and not gold.problems and not gold.defects, path.name
        for task in gold.tasks.values():
            assert all(s.action.kind != "other" for s in task.steps), (path.name, task.task_id)
    step = read_gold(E2E / "gold_fara.jsonl").tasks["fara-webeval"].steps[1]
    # "Type '...' into the search textbox and press enter" is one composite step
    assert (step.action.kind, step.action.value, step.action.submit) == ("type", "GameStop store 90028", True)


# --- BrowserGym: the real 40-task run against the human gold xlsx ---------------------------------------

@pytest.fixture(scope="module")
def webarena(shared_data: Path) -> dict[str, Path]:
    return {
        "results": shared_data / "colorbrowseragent-webarena" / "results",
        "xlsx": shared_data / "webarena-human-gold" / "Golden Human Trajectories.xlsx",
        "tasks": shared_data / "webarena" / "test.raw.json",
    }


@pytest.fixture(scope="module")
def bg_gold(webarena):
    return read_gold(webarena["xlsx"], webarena["tasks"])


@pytest.fixture(scope="module")
def bg_report(webarena, bg_gold) -> tm.Report:
    return tm.score(webarena["results"], bg_gold)


@pytest.fixture(scope="module")
def bg_cli(webarena) -> dict[str, Any]:
    return cli_json(webarena["results"], "--gold", webarena["xlsx"], "--tasks", webarena["tasks"])


PARTIAL_TASKS = {"10", "111", "113", "127", "186", "229", "282", "387"}  # >= 2 requirements in test.raw.json


@shared
def test_browsergym_all_40_tasks_scored_with_real_values(bg_report, webarena, bg_gold):
    folders = {p.name.removeprefix("task_") for p in webarena["results"].iterdir()}
    assert len(folders) == 40
    assert by_id(bg_report.tasks).keys() == folders
    assert {t.status for t in bg_report.tasks} == {"scored"}
    assert bg_report.problems == [] and bg_report.counts["scored"] == 40
    for m in (*STEP_METRICS, "element_accuracy_rate"):
        s = bg_report.summary[m]
        assert (s.n, s.n_na) == (40, 0), m
        assert s.mean is not None and s.ci95[0] <= s.mean <= s.ci95[1], m
        assert all(0.0 <= t.metric(m) <= 1.0 for t in bg_report.tasks), m
    # partial success applies exactly where the task config lists >= 2 requirements
    multi = {tid for tid in folders if len(bg_gold.tasks[tid].requirements) >= 2}
    assert multi == PARTIAL_TASKS
    applicable = {t.task_id for t in bg_report.tasks if t.partial_success_rate is not None}
    assert applicable == multi
    assert (bg_report.summary["partial_success_rate"].n, bg_report.summary["partial_success_rate"].n_na) == (8, 32)
    # this agent's plans reached the environment verbatim: every executed step equals its plan
    for t in bg_report.tasks:
        ea = t.element_accuracy
        assert (ea.considered, ea.equal, ea.no_plan) == (t.n_steps, t.n_steps, 0), t.task_id


@shared
def test_browsergym_matched_pairs_and_answers(bg_report, bg_gold):
    tasks = by_id(bg_report.tasks)
    gold = bg_gold.tasks

    def pair(tid: str, g: int, a: int) -> None:
        assert (g, a) in tasks[tid].matches, (tid, g, a, tasks[tid].matches)

    # task 10: two direction searches; "Click the 'Go' button" is fulfilled by pressing Enter in 'From'
    for g, a in ((3, 2), (4, 3), (6, 4), (12, 5), (14, 6)):
        pair("10", g, a)
    assert gold["10"].steps[6].text == "Click the 'Go' button."
    assert tasks["10"].partial_success_rate == 1.0 and all(r.met for r in tasks["10"].requirements)
    # task 83: "Select 'Car (OSRM)' from the combobox" is done by clicking the 'Car' label; every step fulfilled
    pair("83", 7, 6)
    assert tasks["83"].step_success_rate == 1.0
    # task 229: "Press enter" is done by clicking the Search button; both prices stated
    pair("229", 1, 1)
    assert tasks["229"].final_answer == "UGREEN products range from $6.99 to $38.99."
    assert [r.met for r in tasks["229"].requirements] == [True, True] and tasks["229"].partial_success_rate == 1.0
    # task 111: ten requirements with typos in them ('Feburary', 'Sepetember', 'Octorbor'), all stated
    assert len(tasks["111"].requirements) == 10 and tasks["111"].partial_success_rate == 1.0
    # task 127: one of three names stated
    assert tasks["127"].partial_success_rate == pytest.approx(1 / 3)
    assert [r.met for r in tasks["127"].requirements] == [True, False, False]
    # task 143: a wrong number is not the required one
    assert tasks["143"].final_answer == "260.69" and [r.met for r in tasks["143"].requirements] == [False]
    # task 307 ran out of steps: no answer, so its requirement is not met
    t307 = tasks["307"]
    assert t307.n_steps == 30 and t307.final_answer is None
    assert [(r.met, r.rule) for r in t307.requirements] == [(False, "requirement:no-answer")]


@shared
def test_browsergym_cli_json_equals_api(bg_cli, bg_report):
    assert bg_cli["counts"]["scored"] == 40 and bg_cli["problems"] == []
    assert_cli_equals_api(bg_report, bg_cli)


@shared
def test_browsergym_cli_csv_has_40_rows(webarena):
    res = cli_score(webarena["results"], "--gold", webarena["xlsx"], "--tasks", webarena["tasks"], "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert len(rows) == 40 and {r["status"] for r in rows} == {"scored"}
    assert all(r["step_success_rate"] != "" and r["recovery_rate"] != "" for r in rows)
    assert sum(r["partial_success_rate"] != "" for r in rows) == 8
    assert error_lines(res.stderr) == []


@shared
def test_browsergym_reference_preset_counts_like_the_script(webarena, bg_cli):
    ref = cli_json(webarena["results"], "--gold", webarena["xlsx"], "--tasks", webarena["tasks"], "--preset", "reference")
    assert (ref["config"]["preset"], ref["config"]["lookahead"], ref["config"]["step_matching"]) == ("reference", 0, "greedy")
    default, script = by_id(bg_cli["tasks"]), by_id(ref["tasks"])
    assert script.keys() == default.keys() and {t["status"] for t in script.values()} == {"scored"}
    # lookahead 0 and `each` unfinished step: never more recovered than the default, often less
    for tid in default:
        assert script[tid]["recovery_rate"] <= default[tid]["recovery_rate"], tid
        assert script[tid]["recovery"]["recoveries"] <= default[tid]["recovery"]["recoveries"], tid
        # greedy first-fit never matches more than a maximum matching
        assert script[tid]["step_success_rate"] <= default[tid]["step_success_rate"] + 1e-9, tid
    assert ref["summary"]["recovery_rate"]["mean"] < bg_cli["summary"]["recovery_rate"]["mean"]
    # task 10 skips gold steps it did not need: recovered 4 of 5 with lookahead 5, never with lookahead 0
    assert (default["10"]["recovery"]["incidents"], default["10"]["recovery"]["recoveries"]) == (5, 4)
    assert default["10"]["recovery_rate"] == pytest.approx(0.8) and script["10"]["recovery_rate"] == 0.0


@shared
def test_browsergym_broken_task_beside_the_real_run(webarena):
    """One unreadable task folder: the 40 real tasks are still scored, the problem names the file."""
    broken = AGENT / "browsergym_broken" / "task_2"
    res = cli_score(webarena["results"], broken, "--gold", webarena["xlsx"], "--tasks", webarena["tasks"],
                    "--format", "json", expect=1)
    data = json.loads(res.stdout)
    assert data["counts"]["scored"] == 40
    assert [(t["task_id"], t["status"]) for t in data["tasks"] if t["status"] != "scored"] == [("2", "error")]
    (line,) = error_lines(res.stderr)
    assert str(broken / "steps_info_1.json") in line and "truncated JSON" in line
    assert "Traceback" not in res.output


@shared
def test_requirement_with_a_glued_unit_is_met(bg_report):
    t151 = by_id(bg_report.tasks)["151"]
    assert t151.final_answer == "0:04 (4 minutes)"
    assert [(r.requirement, r.met) for r in t151.requirements] == [("4min", True)]


@shared
def test_glued_units_partial_success_on_webarena_task_16(tmp_path, bg_gold):
    run = tmp_path / "run.jsonl"
    steps = [
        {"action": {"kind": "click", "target": {"role": "link", "name": "Find directions between two points"}}},
        {"action": {"kind": "type", "target": {"role": "textbox", "name": "From"}, "value": "5000 Fifth Avenue, Pittsburgh"}},
        {"action": {"kind": "type", "target": {"role": "textbox", "name": "To"}, "value": "UPMC family health center"}},
        {"action": {"kind": "select", "target": {"role": "combobox"}, "value": "Foot (OSRM)"}},
        {"action": {"kind": "click", "target": {"role": "button", "name": "Go"}}},
        {"action": {"kind": "select", "target": {"role": "combobox"}, "value": "Car (OSRM)"}},
        {"action": {"kind": "click", "target": {"role": "button", "name": "Go"}}},
        {"action": {"kind": "answer", "value": "Driving: 2 min. Walking: 16 min."}},
    ]
    run.write_text(json.dumps({"task_id": "16", "steps": steps}) + "\n")
    (t,) = tm.score(run, bg_gold, tasks=["16"]).tasks
    assert t.status == "scored" and t.step_success_rate == 1.0  # the path itself is the gold path
    assert t.requirements and t.partial_success_rate == 1.0


# --- WebArena render: task 0 (no human gold in the xlsx; hand-written) --------------------------------------

@shared
def test_webarena_render_api_and_cli(shared_data):
    render = shared_data / "webarena-render" / "render_0.html"
    gold = E2E / "gold_webarena0.jsonl"
    report = tm.score(render, gold)
    (t,) = report.tasks
    assert (t.task_id, t.status, t.n_steps) == ("0", "scored", 2)
    # element accuracy: ```click [1090]``` and ```stop [...]``` are what the environment executed
    (traj,) = read_agent_runs(render)
    assert [s.planned_raw for s in traj.steps] == ["click [1090]", "stop [Quest Lumaflex™ Band]"]
    assert (t.element_accuracy.considered, t.element_accuracy.equal, t.element_accuracy.no_plan) == (2, 2, 0)
    assert t.element_accuracy_rate == 1.0
    # the click on 'Go to Advanced Reporting \ue644' fulfils the gold click; the answer is the required product
    assert t.matches == [(0, 0)]
    assert t.final_answer == "Quest Lumaflex™ Band"
    assert [(r.requirement, r.met) for r in t.requirements] == [("Quest Lumaflex™ Band", True)]
    assert t.partial_success_rate is None  # one requirement
    # the answer vs "Extract the name ..." is for a judge: UNSURE, resolved by policy without one
    assert [(u.question, u.agent, u.gold, u.source) for u in t.unsure] == [("step", 1, 1, "policy")]
    assert (t.step_success_rate, t.recovery_rate, t.repetitiveness_rate) == (0.5, 0.0, 1.0)
    data = cli_json(render, "--gold", gold)
    assert_cli_equals_api(report, data)
    # one block per model text: the first block is the last block
    first = cli_json(render.parent, "--gold", gold, "--plan-block", "first")
    assert first["tasks"][0]["element_accuracy_rate"] == 1.0


# --- Online-Mind2Web and fara: coordinate clicks, a fake judge -------------------------------------------

@pytest.fixture(scope="module")
def m2w(shared_data) -> dict[str, Any]:
    folder = shared_data / "online-mind2web"
    gold_path = E2E / "gold_mind2web.jsonl"
    return {"path": folder, "gold_path": gold_path, "gold": read_gold(gold_path),
            "trajs": {t.task_id: t for t in read_agent_runs(folder)}, "report": tm.score(folder, gold_path)}


@pytest.fixture(scope="module")
def fara(shared_data) -> dict[str, Any]:
    log = shared_data / "fara-webeval" / "web_surfer.log"
    gold_path = E2E / "gold_fara.jsonl"
    return {"path": log, "gold_path": gold_path, "gold": read_gold(gold_path),
            "trajs": {t.task_id: t for t in read_agent_runs(log)}, "report": tm.score(log, gold_path)}


WALMART, DISCOGS = "0059adc6b12a3822305deb68929b2de8", "fb7b4f784cfde003e2548fdf4e8d6b4f"


@shared
def test_mind2web_api_and_cli(m2w):
    report = m2w["report"]
    tasks = by_id(report.tasks)
    assert tasks.keys() == {WALMART, DISCOGS} and {t.status for t in report.tasks} == {"scored"}
    assert report.problems == []
    w = tasks[WALMART]
    # goto, typed query, Enter, typed location, scroll: the named/valued steps are found
    assert {(0, 0), (2, 2), (3, 3), (5, 13)} <= set(w.matches)
    assert w.step_success_rate == pytest.approx(5 / 8)
    assert 6 in w.repeats and 7 in w.repeats  # three scrolls down in a row
    assert w.recovery_rate is not None and w.repetitiveness_rate < 1.0
    assert "13 open roles" in (w.final_answer or "")
    d = tasks[DISCOGS]
    assert [(r.requirement, r.met) for r in d.requirements] == [("Overview Of Submission Guidelines For Releases", True)]
    # no plan in this format: element accuracy does not apply (None, never 0)
    assert w.element_accuracy_rate is None and d.element_accuracy_rate is None
    assert report.summary["element_accuracy_rate"].n == 0
    assert_cli_equals_api(report, cli_json(m2w["path"], "--gold", m2w["gold_path"]))


@shared
def test_fara_api_and_cli(fara):
    report = fara["report"]
    (t,) = report.tasks
    assert (t.task_id, t.status, t.n_steps, t.n_atoms) == ("fara-webeval", "scored", 3, 4)  # web_search = type + Enter
    assert t.final_answer.startswith("The closest GameStop store to zip code 90028")
    assert [r.met for r in t.requirements] == [True, True] and t.partial_success_rate == 1.0
    assert t.recovery_rate is not None and t.repetitiveness_rate == 1.0 and t.element_accuracy_rate is None
    assert_cli_equals_api(report, cli_json(fara["path"], "--gold", fara["gold_path"]))


@shared
@pytest.mark.parametrize("which", ["m2w", "fara"])
def test_fake_judge_is_asked_only_about_unsure_pairs_and_resolves_them(which, request):
    run = request.getfixturevalue(which)
    rules_only = run["report"]
    unsure = unsure_questions(rules_only, run["trajs"], run["gold"])
    assert unsure, "the rules are unsure about something in this sample"
    judge = AlwaysMatchJudge()
    judged = tm.score(run["path"], run["gold_path"], judge=judge)
    assert judge.questions and asked(judge) <= unsure
    assert judged.judge.questions == len(judge.questions) and judged.judge.calls == len(judge.questions)
    assert judged.judge.model == "always-match"
    for t in judged.tasks:
        for u in t.unsure:
            if u.source == "judge":
                assert (u.verdict, u.reason) == ("MATCH", "always MATCH")
    # a MATCH from the judge can only add matches
    for before, after in zip(rules_only.tasks, judged.tasks):
        assert after.step_success_rate >= before.step_success_rate


@shared
def test_fake_judge_turns_the_fara_unsure_steps_into_matches(fara):
    judged = tm.score(fara["path"], fara["gold_path"], judge=AlwaysMatchJudge())
    (t,) = judged.tasks
    # the web search fulfils the composite "Type ... and press enter" (two atoms), the answer the "Extract",
    # and the coordinate-only click the gold click (UNSURE for the rules, MATCH for this judge)
    assert {(1, 1), (1, 2), (2, 3)} <= set(t.matches) and (0, 0) in t.matches
    assert t.step_success_rate == 1.0 and fara["report"].tasks[0].step_success_rate == 0.0


@shared
def test_coordinate_only_clicks_reach_unsure_and_the_judge_resolves_them(m2w, fara):
    # fara: left_click at (1074, 37) vs "Click on the 'Store Locator' link."
    (f,) = fara["report"].tasks
    assert any(u.question == "step" and (u.agent, u.gold) == (0, 0) for u in f.unsure)
    # Online-Mind2Web: "Click at (600, 475)" vs "Click on the 'Search jobs' textbox."
    w = by_id(m2w["report"].tasks)[WALMART]
    assert any(u.question == "step" and (u.agent, u.gold) == (1, 1) for u in w.unsure)
    judge = AlwaysMatchJudge()
    (judged,) = tm.score(fara["path"], fara["gold_path"], judge=judge).tasks
    assert (0, 0) in judged.matches


@shared
def test_unnamed_clicks_on_different_elements_are_not_repeats(m2w):
    d = by_id(m2w["report"].tasks)[DISCOGS]
    assert 3 not in d.repeats


# --- hand-written fixtures: computer use, tool calls (both layouts), reference sheet -----------------------

def test_computer_use_api_and_cli():
    paths = [AGENT / "computer_use" / "openai.jsonl", AGENT / "computer_use" / "anthropic_rows.jsonl"]
    report = tm.score(paths, LOCAL_GOLD)
    tasks = by_id(report.tasks)
    assert {tid: t.status for tid, t in tasks.items()} == {"cu1": "scored", "cu2": "error", "an1": "scored", "an2": "scored"}
    # openai.jsonl line 2 has a computer_call with no action: reported, the other tasks scored
    assert [p.message for p in report.problems] == [
        f"{paths[0]}:line 2: items[0]: action: expected an object, found nothing (field missing)"]
    cu1 = tasks["cu1"]
    assert cu1.matches == [(1, 1), (2, 2)]  # typed 'blue mug', pressed Enter
    assert cu1.final_answer == "The mug is in the cart." and cu1.step_success_rate == pytest.approx(2 / 5)
    # an1: the click at (50, 60) failed; Enter then did what "Click on the 'Go' button" does
    an1 = tasks["an1"]
    assert an1.matches == [(0, 2)] and an1.step_success_rate == 1.0
    assert (an1.recovery.incidents, an1.recovery.recoveries, an1.recovery.mean_cost) == (1, 1, 3.0)
    assert tasks["an2"].final_answer is None and tasks["an2"].step_success_rate == 1.0
    for t in (cu1, an1, tasks["an2"]):
        assert all(t.metric(m) is not None for m in STEP_METRICS), t.task_id
        assert t.element_accuracy_rate is None  # one recorded action a step: no plan to compare
    res = cli_score(*paths, "--gold", LOCAL_GOLD, "--format", "json", expect=1)
    assert_cli_equals_api(report, json.loads(res.stdout))
    (line,) = error_lines(res.stderr)
    assert str(paths[0]) in line and "line 2" in line


def test_tool_calls_chat_layout_with_tool_map_api_and_cli():
    chat, single = AGENT / "tool_calls" / "chat.jsonl", AGENT / "tool_calls" / "single.json"
    report = tm.score([chat, single], LOCAL_GOLD, tool_map=TOOL_MAP)
    tasks = by_id(report.tasks)
    assert {tid: t.status for tid, t in tasks.items()} == {"21": "scored", "22": "scored", "23": "error", "single": "scored"}
    assert len(report.problems) == 2 and all(p.message.startswith(f"{chat}:line ") for p in report.problems)
    for tid in ("21", "single"):  # the same conversation, as JSONL and as one JSON file
        t = tasks[tid]
        assert t.matches[:2] == [(0, 0), (1, 1)]  # navigate, type 'blue mug'
        assert t.final_answer == "The mug costs $12.50." and [r.met for r in t.requirements] == [True]
        assert all(t.metric(m) is not None for m in STEP_METRICS)
    # the tool map makes my_submit an answer: two answers in a row are a repeat
    assert tasks["22"].final_answer == "42" and tasks["22"].repeats == [1]
    assert tasks["22"].repetitiveness_rate == 0.5 and [r.met for r in tasks["22"].requirements] == [True]
    res = cli_score(chat, single, "--gold", LOCAL_GOLD, "--tool-map", TOOL_MAP, "--format", "json", expect=1)
    assert_cli_equals_api(report, json.loads(res.stdout))
    errors = error_lines(res.stderr)
    assert len(errors) == 2 and all(str(chat) in e for e in errors)


def test_tool_calls_sft_layout_api_and_cli():
    sft = AGENT / "tool_calls" / "sft.jsonl"
    report = tm.score(sft, LOCAL_GOLD)
    tasks = by_id(report.tasks)
    assert {tid: t.status for tid, t in tasks.items()} == {"31": "scored", "32": "scored", "33": "error"}
    t31 = tasks["31"]  # turns out of order in the file, sorted by turn_index; the plan turn is not an action
    assert t31.n_steps == 3 and t31.matches == [(0, 0), (1, 1)] and t31.step_success_rate == 1.0
    assert t31.recovery_rate == 1.0 and t31.recovery.incidents == 0
    assert t31.final_answer == "$12.50" and [r.met for r in t31.requirements] == [True]
    t32 = tasks["32"]  # navigated, never clicked 'Mugs', gave no answer
    assert t32.matches == [(0, 0)] and t32.step_success_rate == 0.5 and t32.final_answer is None
    assert t32.recovery_rate == 0.0 and t32.recovery.events[0]["kind"] == "unfinished"
    res = cli_score(sft, "--gold", LOCAL_GOLD, "--format", "json", expect=1)
    assert_cli_equals_api(report, json.loads(res.stdout))
    (line,) = error_lines(res.stderr)
    assert f"{sft}:line 6" in line


def _reference_sheet_xlsx(tmp_path: Path) -> Path:
    """The csv fixture's rows as an .xlsx, written with openpyxl (the script's spreadsheet is xlsx)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    with open(AGENT / "reference_sheet.csv", encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh):
            ws.append(row)
    path = tmp_path / "reference_sheet.xlsx"
    wb.save(path)
    return path


def test_reference_sheet_csv_and_xlsx_api_and_cli(tmp_path):
    sheet = AGENT / "reference_sheet.csv"
    report = tm.score(sheet, LOCAL_GOLD)
    assert report.problems == [] and {t.status for t in report.tasks} == {"scored"}
    tasks = by_id(report.tasks)
    t12 = tasks["12"]  # type [35] [blue mug] [1] = type + Enter, then the link, then stop [$12.50]
    assert t12.matches == [(0, 0), (1, 1), (2, 2)] and t12.step_success_rate == 1.0
    assert (t12.element_accuracy.considered, t12.element_accuracy.equal) == (3, 3) and t12.element_accuracy_rate == 1.0
    assert t12.final_answer == "$12.50" and t12.requirements[0].met
    t13 = tasks["13"]  # no plan on step 1, an equal scroll, then an early stop; no answer
    ea = t13.element_accuracy
    assert (ea.considered, ea.equal, ea.no_plan, ea.early_stop_at) == (2, 1, 1, 2) and t13.element_accuracy_rate == 0.5
    assert t13.final_answer is None and t13.partial_success_rate == 0.0
    assert [(r.met, r.rule) for r in t13.requirements] == [(False, "requirement:no-answer")] * 2
    assert (2, 1) in t13.matches  # the scroll
    assert_cli_equals_api(report, cli_json(sheet, "--gold", LOCAL_GOLD))
    # the first backtick block of "```click [40]``` or maybe ```click [41]```" is not what was executed
    first = by_id(cli_json(sheet, "--gold", LOCAL_GOLD, "--plan-block", "first")["tasks"])
    assert first["12"]["element_accuracy_rate"] == pytest.approx(2 / 3)
    # the same rows as an xlsx score the same
    xlsx = tm.score(_reference_sheet_xlsx(tmp_path), LOCAL_GOLD)
    assert as_json(xlsx)["tasks"] == as_json(report)["tasks"]


# --- a mixed run with one broken input -----------------------------------------------------------------------

MIXED = [AGENT / "reference_sheet.csv", AGENT / "webarena_broken" / "render_9.html",
         AGENT / "computer_use" / "anthropic_rows.jsonl"]


def test_mixed_inputs_one_broken_api():
    report = tm.score(MIXED, LOCAL_GOLD)
    status = {t.task_id: t.status for t in report.tasks}
    assert status == {"12": "scored", "13": "scored", "9": "error", "an1": "scored", "an2": "scored"}
    (problem,) = report.problems
    assert problem.source == str(MIXED[1]) and problem.task_id == "9"
    assert problem.message.startswith(f"{MIXED[1]}: div.parsed_action: expected one per step")
    assert report.summary["step_success_rate"].n == 4


def test_mixed_inputs_one_broken_cli():
    res = cli_score(*MIXED, "--gold", LOCAL_GOLD, "--format", "csv", expect=1)
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert [(r["task_id"], r["status"]) for r in rows] == [
        ("12", "scored"), ("13", "scored"), ("9", "error"), ("an1", "scored"), ("an2", "scored")]
    (line,) = error_lines(res.stderr)
    assert str(MIXED[1]) in line
    assert "Traceback" not in res.output


def test_mixed_inputs_cli_counts_one_problem():
    res = cli_score(*MIXED, "--gold", LOCAL_GOLD, "--format", "csv", expect=1)
    assert res.stderr.splitlines()[-1] == "1 input problem(s); 4 task(s) scored"
