"""Online-Mind2Web, Fara, computer-use JSONL, tool calls and canonical JSONL readers."""

from __future__ import annotations

from pathlib import Path

import pytest

from trajmetrics.formats import detect_format, read_agent_runs
from trajmetrics.model import AgentTrajectory, ReadProblem


@pytest.fixture()
def agent(test_data: Path) -> Path:
    return test_data / "agent"


def _split(items: list) -> tuple[dict[str, AgentTrajectory], list[ReadProblem]]:
    return {t.task_id: t for t in items if isinstance(t, AgentTrajectory)}, [p for p in items if isinstance(p, ReadProblem)]


def test_mind2web(agent: Path) -> None:
    trajs, problems = _split(list(read_agent_runs([agent / "mind2web"])))
    t = trajs["a1"]
    assert t.format == "mind2web" and t.intent == "Find the store hours of the Main St library."
    assert [s.action.kind for s in t.steps] == ["type", "click", "select", "hover", "press", "goto", "scroll", "other"]
    assert t.steps[0].action.target.name == "Search the catalog" and t.steps[0].thought == "Search first."
    assert t.steps[1].thought is None  # an empty thought is no thought
    assert t.final_answer == "Open 9am to 5pm."
    assert all(s.planned is None for s in t.steps)
    (problem,) = problems
    assert problem.task_id == "b2" and "result.json: action_history: expected a list, found string 'Click at (1, 2)'" in problem.message


def test_fara(agent: Path) -> None:
    trajs, problems = _split(list(read_agent_runs([agent / "fara"])))
    t = trajs["Mugs--3"]
    assert t.format == "fara"
    assert [s.action.kind for s in t.steps] == ["goto", "type", "scroll", "note", "answer"]
    typed = t.steps[1]
    assert typed.action.value == "blue mug" and typed.action.submit and typed.action.target.x == 640.0
    assert typed.thought == "Type the query."
    assert t.steps[2].action.value == "down"
    assert t.final_answer == "The blue mug costs $12.50." and t.steps[-1].action.value == t.final_answer
    aborted = trajs["Mugs--4"]
    assert aborted.aborted and aborted.final_answer is None  # <no_answer>
    assert [s.action.kind for s in aborted.steps] == ["click", "press"]
    assert aborted.steps[0].thought == "Click the menu." and aborted.steps[1].action.value == "Escape"
    (problem,) = problems
    assert problem.task_id == "Mugs--5"
    assert "web_surfer.log:line 1: Action #1 arguments: expected a JSON object, found truncated JSON" in problem.message


def test_fara_log_without_answer_file(tmp_path: Path, agent: Path) -> None:
    log = tmp_path / "web_surfer.log"
    log.write_bytes((agent / "fara" / "Mugs--3" / "web_surfer.log").read_bytes())
    (t,) = list(read_agent_runs([log]))
    assert isinstance(t, AgentTrajectory)
    assert t.final_answer == "The blue mug costs $12.50." and t.meta["answer_from"] == "log"


def test_computer_use_task_per_line(agent: Path) -> None:
    path = agent / "computer_use" / "openai.jsonl"
    assert detect_format(path) == "computer_use"
    trajs, problems = _split(list(read_agent_runs([path])))
    t = trajs["cu1"]
    assert t.intent == "Buy a mug"
    assert [s.action.kind for s in t.steps] == ["click", "type", "press", "scroll", "go_back"]
    assert t.steps[0].thought == "Click the search box." and (t.steps[0].action.target.x, t.steps[0].action.target.y) == (100.0, 200.0)
    assert t.meta["skipped"] == 1  # the screenshot
    assert t.final_answer == "The mug is in the cart."
    (problem,) = problems
    assert problem.task_id == "cu2" and "openai.jsonl:line 2: items[0]: action: expected an object, found nothing (field missing)" in problem.message


def test_computer_use_rows_grouped_by_task(agent: Path) -> None:
    trajs, problems = _split(list(read_agent_runs([agent / "computer_use" / "anthropic_rows.jsonl"])))
    assert not problems and list(trajs) == ["an1", "an2"]
    an1 = trajs["an1"]
    assert [s.action.kind for s in an1.steps] == ["click", "scroll", "press"]
    assert an1.steps[0].error == "click failed"  # tool_result with is_error, on a later line
    assert an1.steps[0].thought == "I will click Go."
    assert an1.steps[1].action.value == "up" and an1.steps[2].action.value == "Enter"
    assert an1.final_answer == "Done: the page is open."
    assert [s.action.kind for s in trajs["an2"].steps] == ["type"]


def test_tool_calls_chat(agent: Path) -> None:
    path = agent / "tool_calls" / "chat.jsonl"
    assert detect_format(path) == "tool_calls"
    trajs, problems = _split(list(read_agent_runs([path], tool_map=agent / "tool_calls" / "tool_map.json")))
    t = trajs["21"]
    assert t.intent == "Find the mug price"
    assert [s.action.kind for s in t.steps] == ["goto", "type", "click"]  # screenshot and zoom_page skipped
    assert t.steps[0].thought == "Open the shop first." and t.steps[0].action.tool == "browser_navigate"
    assert (t.steps[1].action.target.id, t.steps[1].action.value) == ("12", "blue mug")
    assert t.steps[2].action.target.name == "Go button" and t.steps[2].error == "Error: element 13 is not visible"
    assert t.final_answer == "The mug costs $12.50."
    t22 = trajs["22"]
    assert [s.action.kind for s in t22.steps] == ["answer", "answer"] and t22.final_answer == "42"
    messages = sorted(p.message for p in problems)
    assert any("chat.jsonl:line 3: messages[0]: role: expected a string, found nothing (field missing)" in m for m in messages)
    assert any("chat.jsonl:line 4: expected one JSON value per line, found truncated JSON" in m for m in messages)


def test_tool_calls_without_map_keeps_unknown_tools(agent: Path) -> None:
    trajs, _ = _split(list(read_agent_runs([agent / "tool_calls" / "chat.jsonl"])))
    t = trajs["21"]
    zoom = t.steps[-1]
    assert zoom.action.kind == "other" and zoom.action.tool == "zoom_page"
    assert zoom.action.args == {"arguments": '{"level": 2'}  # broken JSON arguments are kept as text
    assert t.meta["unparsed_arguments"]
    assert trajs["22"].steps[0].action.kind == "other"


def test_tool_calls_single_message_list(agent: Path) -> None:
    (t,) = list(read_agent_runs([agent / "tool_calls" / "single.json"]))
    assert isinstance(t, AgentTrajectory) and t.task_id == "single" and len(t.steps) == 4


def test_tool_calls_sft_rows(agent: Path) -> None:
    trajs, problems = _split(list(read_agent_runs([agent / "tool_calls" / "sft.jsonl"])))
    t = trajs["31"]
    assert [s.action.kind for s in t.steps] == ["type", "click", "answer"]  # act rows by turn_index, plan row left out
    assert t.steps[0].thought == "Type the query." and t.steps[0].action.submit is False
    assert t.meta == {"session_id": "s1", "other_roles": {"plan": 1}}
    assert t.final_answer == "$12.50"
    assert trajs["32"].steps[0].action.value == "http://shop.test"
    (problem,) = problems
    assert problem.task_id == "33" and "response: expected a JSON list of output blocks, found integer 7" in problem.message


def test_canonical(agent: Path) -> None:
    path = agent / "canonical" / "run.jsonl"
    assert detect_format(path) == "canonical"
    trajs, problems = _split(list(read_agent_runs([path])))
    assert sorted(trajs) == ["41"]
    assert trajs["41"].steps[0].action.submit and trajs["41"].source == f"{path}:line 1"
    messages = [p.message for p in problems]
    assert messages[0].startswith(f"{path}:line 2: steps[1].action.kind: expected 'click', 'type',")
    assert messages[0].endswith("found string 'klick'")
    assert messages[1] == f"{path}:line 3: steps[0].action.target.id: expected a valid string, found integer 5"
    assert messages[2] == f"{path}:line 4: colour: expected no such field (unknown field), found string 'blue'"
