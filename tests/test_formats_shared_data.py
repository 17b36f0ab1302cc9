"""The readers on the real samples in ../shared/data (skipped with a reason when the folder is absent)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from trajmetrics.formats import detect_format, read_agent_runs
from trajmetrics.model import AgentTrajectory, ReadProblem

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def run(shared_data: Path) -> dict[str, AgentTrajectory]:
    results = shared_data / "colorbrowseragent-webarena" / "results"
    items = list(read_agent_runs([results]))
    assert not [i for i in items if isinstance(i, ReadProblem)]
    return {t.task_id: t for t in items if isinstance(t, AgentTrajectory)}


def test_browsergym_run_shape(run: dict[str, AgentTrajectory], shared_data: Path) -> None:
    results = shared_data / "colorbrowseragent-webarena" / "results"
    assert len(run) == 40
    for task_id, traj in run.items():
        summary = json.loads((results / f"task_{task_id}" / "summary_info.json").read_text())
        assert len(traj.steps) == summary["n_steps"], task_id  # executed actions only
        assert not traj.aborted and traj.format == "browsergym"
        assert traj.intent
        assert all(s.planned is not None for s in traj.steps)
        assert all(s.action.kind != "other" for s in traj.steps)
        # the environment received each plan verbatim in this run
        assert "plan_differs" not in traj.meta and "executed_from_plan" not in traj.meta
    assert sum(len(t.steps) for t in run.values()) == 315
    # the two runs that ran out of steps are not aborted and have no answer
    assert run["307"].meta["truncated"] and run["307"].final_answer is None and len(run["307"].steps) == 30


def test_browsergym_task_10(run: dict[str, AgentTrajectory]) -> None:
    t = run["10"]
    first, second = t.steps[0], t.steps[1]
    assert (first.action.kind, first.action.target.role, first.action.target.name) == ("type", "textbox", "Search")
    assert first.action.value == "Niagara Falls, New York" and not first.action.submit
    assert (second.action.kind, second.action.target.role, second.action.target.name) == ("click", "button", "Go")
    assert first.thought and first.thought.startswith("The user wants the full address")
    assert first.url == "https://www.openstreetmap.org/#map=11/22.3567/114.1363"
    assert t.final_answer is not None and t.final_answer.startswith("• Niagara Falls International Airport, 2035")
    assert t.meta["unexecuted_action"] == "click('209')"


def test_browsergym_final_answers(run: dict[str, AgentTrajectory]) -> None:
    assert run["143"].final_answer == "260.69"
    assert run["127"].final_answer == "hollister (19 uses)"  # the last executed message, not the unexecuted one
    assert run["446"].final_answer is None  # no send_msg_to_user executed
    answered = [t for t in run.values() if t.final_answer is not None]
    assert len(answered) == 23


def test_browsergym_agrees_with_alignment_notes(run: dict[str, AgentTrajectory], shared_data: Path) -> None:
    labels = [json.loads(line) for line in (shared_data / "labels" / "dev_alignment.jsonl").read_text().splitlines() if line.strip()]
    for label in labels:
        traj = run[str(label["task_id"])]
        indices = [m["a"] for m in label["matches"] if m["a"] is not None] + label["repeats"]
        assert all(0 <= a < len(traj.steps) for a in indices), label["task_id"]
    steps = {tid: run[tid].steps for tid in ("10", "83", "103", "263", "418")}
    # "Directions submitted with Enter (a4, a6)"
    assert [(steps["10"][i].action.kind, steps["10"][i].action.value) for i in (4, 6)] == [("press", "Enter")] * 2
    # "The a1 click on the unlabeled Foot radio was intercepted (TimeoutError); a2 retried it through the 'Foot' label."
    a1, a2 = steps["83"][1], steps["83"][2]
    assert a1.action.target.role == "radio" and a1.error and a1.error.startswith("TimeoutError")
    assert (a2.action.target.role, a2.action.target.name) == ("LabelText", "Foot") and a2.error is None
    # "The agent used goto to the search URL (search=ffmpeg-python)"
    assert steps["103"][0].action.kind == "goto" and "search=ffmpeg-python" in (steps["103"][0].action.value or "")
    # "The agent hovered over 'Clothing, Shoes & Jewelry' and 'Women' (a0, a1)"
    assert [s.action.kind for s in steps["263"][:2]] == ["hover", "hover"]
    assert "Clothing, Shoes & Jewelry" in (steps["263"][0].action.target.name or "")
    assert (steps["263"][1].action.target.name or "").endswith("Women")
    # "a3 clicks the checkbox's label after the click on the checkbox (a2) timed out"
    assert steps["418"][2].action.target.role == "checkbox" and steps["418"][2].error
    assert steps["418"][3].action.target.role == "LabelText"
    assert (steps["418"][3].action.target.name or "").startswith("Set yourself as busy")


def test_browsergym_read_time(shared_data: Path) -> None:
    results = shared_data / "colorbrowseragent-webarena" / "results"
    start = time.perf_counter()
    n = sum(1 for _ in read_agent_runs([results]))
    elapsed = time.perf_counter() - start
    assert n == 40
    assert elapsed < 10, f"reading the 40-task run took {elapsed:.2f} s"


def test_webarena_render(shared_data: Path) -> None:
    folder = shared_data / "webarena-render"
    assert detect_format(folder) == "webarena_render"
    (t,) = list(read_agent_runs([folder]))
    assert isinstance(t, AgentTrajectory)
    assert t.task_id == "0" and t.intent == "What is the top-1 best-selling product in 2022"
    click, stop = t.steps
    assert (click.action.kind, click.action.target.id, click.action.target.role) == ("click", "1090", "link")
    assert (click.action.target.name or "").startswith("Go to Advanced Reporting")
    assert click.planned_raw == "click [1090]" and click.planned is not None and click.planned.target.id == "1090"
    assert click.url == "http://localhost:7780/admin/admin/dashboard/"
    assert stop.action.kind == "answer" and t.final_answer == "Quest Lumaflex™ Band"
    assert not t.aborted and not any(s.early_stop for s in t.steps)


def test_online_mind2web(shared_data: Path) -> None:
    folder = shared_data / "online-mind2web"
    assert detect_format(folder) == "mind2web"
    trajs = {t.task_id: t for t in read_agent_runs([folder]) if isinstance(t, AgentTrajectory)}
    claude = trajs["0059adc6b12a3822305deb68929b2de8"]
    assert len(claude.steps) == 24 and claude.steps[0].action.kind == "goto"
    assert [s.action.kind for s in claude.steps].count("other") == 0
    assert claude.steps[2].action.value == "support services" and claude.steps[-1].action.kind == "go_back"
    assert claude.final_answer and "13 open roles" in claude.final_answer
    osu = trajs["fb7b4f784cfde003e2548fdf4e8d6b4f"]
    assert [s.action.kind for s in osu.steps] == ["click"] * 4
    assert osu.steps[0].action.target.role == "button" and osu.steps[3].action.target.role == "menuitem"


def test_fara_readme_log(shared_data: Path) -> None:
    log = shared_data / "fara-webeval" / "web_surfer.log"
    assert detect_format(log) == "fara"
    (t,) = list(read_agent_runs([log]))
    assert isinstance(t, AgentTrajectory)
    assert [s.action.kind for s in t.steps] == ["click", "type", "answer"]
    assert (t.steps[0].action.target.x, t.steps[0].action.target.y) == (1074.0, 37.0)
    assert t.steps[1].action.tool == "web_search" and t.steps[1].action.value == "GameStop store locator zip code 90028"
    assert t.final_answer and t.final_answer.startswith("The closest GameStop store to zip code 90028")
