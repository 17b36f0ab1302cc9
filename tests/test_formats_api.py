"""The public reader API (detection, options, streaming, writing) and `trajmetrics agent`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trajmetrics import formats
from trajmetrics.cli.main import cli
from trajmetrics.errors import ConfigError, InputError
from trajmetrics.formats import AGENT_FORMATS, detect_format, read_agent_runs, write_agent_jsonl
from trajmetrics.model import AgentTrajectory, ReadProblem


@pytest.fixture()
def agent(test_data: Path) -> Path:
    return test_data / "agent"


def test_public_names() -> None:
    assert set(formats.__all__) >= {"AGENT_FORMATS", "detect_format", "read_agent_runs", "write_agent_jsonl"}
    assert AGENT_FORMATS == (
        "browsergym", "webarena_render", "reference_sheet", "mind2web", "fara", "computer_use", "tool_calls", "canonical",
    )


@pytest.mark.parametrize(
    ("rel", "fmt"),
    [
        ("browsergym", "browsergym"),
        ("browsergym/task_7", "browsergym"),
        ("browsergym/task_7/summary_info.json", "browsergym"),
        ("browsergym/task_7/steps_info_0.json", "browsergym"),
        ("webarena", "webarena_render"),
        ("webarena/render_5.html", "webarena_render"),
        ("reference_sheet.csv", "reference_sheet"),
        ("mind2web", "mind2web"),
        ("mind2web/a1", "mind2web"),
        ("mind2web/a1/result.json", "mind2web"),
        ("fara", "fara"),
        ("fara/Mugs--3", "fara"),
        ("fara/Mugs--3/web_surfer.log", "fara"),
        ("computer_use", "computer_use"),
        ("tool_calls/sft.jsonl", "tool_calls"),
        ("tool_calls/single.json", "tool_calls"),
        ("canonical", "canonical"),
    ],
)
def test_detect(agent: Path, rel: str, fmt: str) -> None:
    assert detect_format(agent / rel) == fmt


def test_unknown_format_lists_the_known_ones(tmp_path: Path, agent: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError) as info:
        read_agent_runs([tmp_path / "notes.txt"])
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'notes.txt'}: expected an agent run in one of the formats browsergym, webarena_render,")
    assert "--agent-format forces one" in message and message.endswith("found a .txt file with no known markers")
    with pytest.raises(InputError, match="found an empty folder"):
        detect_format(tmp_path / "empty")
    with pytest.raises(InputError, match="found a spreadsheet without the columns Task No, Text, Next Step"):
        detect_format(agent / "reference_sheet_bad.csv")
    with pytest.raises(InputError, match="no such file or folder"):
        detect_format(tmp_path / "missing")


def test_options_are_checked_before_reading(agent: Path) -> None:
    with pytest.raises(ConfigError, match="--agent-format: expected one of browsergym, .*found 'agentlab'"):
        read_agent_runs([agent / "browsergym"], "agentlab")
    with pytest.raises(ConfigError, match="--plan-block: expected one of last, first"):
        read_agent_runs([agent / "webarena"], plan_block="middle")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="tool map"):
        read_agent_runs([agent / "tool_calls/chat.jsonl"], tool_map=agent / "nope.json")


def test_forced_format(agent: Path, tmp_path: Path) -> None:
    # a render saved under another name is still read when forced
    copy = tmp_path / "run.txt"
    copy.write_bytes((agent / "webarena" / "render_5.html").read_bytes())
    (t,) = list(read_agent_runs([copy], "webarena_render"))
    assert isinstance(t, AgentTrajectory) and t.task_id == "5"
    (tmp_path / "empty").mkdir()
    (problem,) = list(read_agent_runs([tmp_path / "empty"], "browsergym"))
    assert isinstance(problem, ReadProblem) and "found an empty folder" in problem.message


def test_streams_one_task_at_a_time(agent: Path) -> None:
    stream = read_agent_runs([agent / "browsergym", agent / "webarena"])
    first = next(stream)
    assert isinstance(first, AgentTrajectory) and first.task_id == "7"
    assert [t.task_id for t in stream] == ["8", "5", "6", "7"]


def test_write_and_read_back(tmp_path: Path, agent: Path) -> None:
    items = list(read_agent_runs([agent / "browsergym", agent / "fara"]))
    out = tmp_path / "run.jsonl"
    written = write_agent_jsonl(items, out)
    trajs = [i for i in items if isinstance(i, AgentTrajectory)]
    assert written == len(trajs) == 4  # the ReadProblem is skipped
    assert detect_format(out) == "canonical"
    back = list(read_agent_runs([out]))
    assert [t.model_dump(exclude={"source"}) for t in back] == [t.model_dump(exclude={"source"}) for t in trajs]  # type: ignore[union-attr]
    assert not list(tmp_path.glob(".run.jsonl.*"))  # the temporary file is gone


def test_write_to_open_file(agent: Path) -> None:
    import io

    buf = io.StringIO()
    assert write_agent_jsonl(read_agent_runs([agent / "webarena" / "render_5.html"]), buf) == 1
    assert json.loads(buf.getvalue())["task_id"] == "5"


def test_cli_convert(tmp_path: Path, agent: Path) -> None:
    out = tmp_path / "run.jsonl"
    result = CliRunner().invoke(cli, ["agent", "convert", str(agent / "browsergym"), str(agent / "webarena"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr == f"5 tasks, 13 steps, 0 problems, 2 aborted -> {out}\n"
    assert [json.loads(line)["task_id"] for line in out.read_text().splitlines()] == ["7", "8", "5", "6", "7"]


def test_cli_convert_stdout_with_problems(agent: Path) -> None:
    result = CliRunner().invoke(cli, ["agent", "convert", str(agent / "browsergym_broken"), "-o", "-"])
    assert result.exit_code == 1
    assert [json.loads(line)["task_id"] for line in result.stdout.splitlines()] == ["1"]  # the good task is still written
    lines = result.stderr.splitlines()
    assert lines[0] == "1 tasks, 1 steps, 4 problems"
    assert len(lines) == 5 and all(line.startswith("  problem: ") for line in lines[1:])


def test_cli_convert_options(tmp_path: Path, agent: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["agent", "convert", str(agent / "tool_calls" / "chat.jsonl"), "--tool-map",
                                 str(agent / "tool_calls" / "tool_map.json"), "-o", "-"])
    assert result.exit_code == 1  # two bad lines in the fixture
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[1]["final_answer"] == "42"
    result = runner.invoke(cli, ["agent", "convert", str(agent / "webarena"), "--plan-block", "first", "-o", "-"])
    assert json.loads(result.stdout.splitlines()[0])["steps"][0]["planned_raw"] == "click [40]"
    result = runner.invoke(cli, ["agent", "convert", str(agent / "webarena"), "--agent-format", "nope", "-o", "-"])
    assert result.exit_code == 2 and "Invalid value for '--agent-format'" in result.stderr
    (tmp_path / "x.txt").write_text("?")
    result = runner.invoke(cli, ["agent", "convert", str(tmp_path / "x.txt"), "-o", "-"])
    assert result.exit_code == 1
    assert "expected an agent run in one of the formats" in result.stderr and "--agent-format forces one" in result.stderr


def test_cli_formats() -> None:
    result = CliRunner().invoke(cli, ["agent", "formats"])
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == list(AGENT_FORMATS)
