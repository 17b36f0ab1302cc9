"""`trajmetrics gold convert|lint` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trajmetrics.cli.main import cli

GOLD = Path(__file__).resolve().parent / "data" / "gold"


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def test_gold_group_is_registered(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["gold", "--help"])
    assert result.exit_code == 0
    assert "convert" in result.output and "lint" in result.output


def test_convert_writes_jsonl_and_a_summary(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "gold.jsonl"
    result = runner.invoke(cli, ["gold", "convert", str(GOLD / "gold_small.csv"), "--tasks",
                                 str(GOLD / "tasks_small.json"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == f"3 tasks, 9 steps (100.00% parsed, 0 unparsed), 6 defects, 0 problems -> {out}"
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["task_id"] for r in rows] == ["10", "11", "12"]
    assert rows[1]["requirements"] == ["Niagara Falls International Airport, 2035, Niagara Falls Boulevard", "Buffalo"]
    assert rows[0]["steps"][1]["action"]["value"] == "404 for many URLs"


def test_convert_to_stdout(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["gold", "convert", str(GOLD / "gold_semicolon.csv"), "-o", "-"])
    assert result.exit_code == 0
    assert json.loads(result.stdout.splitlines()[0])["task_id"] == "7"


def test_convert_with_unreadable_records_exits_1_but_writes_the_rest(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    result = runner.invoke(cli, ["gold", "convert", str(GOLD / "broken_rows.csv"), "-o", str(out)])
    assert result.exit_code == 1
    assert "problem: " in result.stderr and "line 2: Task No." in result.stderr
    assert len(out.read_text().splitlines()) == 3


def test_lint_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["gold", "lint", str(GOLD / "gold_small.csv"), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {"tasks", "steps", "by_kind", "unparsed", "defects"} <= set(report)
    assert (report["tasks"], report["steps"]) == (3, 9)
    assert report["by_kind"]["click"] == 2 and report["by_kind"]["other"] == 0
    assert report["defect_counts"] == {"empty_task_id": 1, "bad_step_no": 1, "split_task": 2, "misnumbered": 1}
    d = report["defects"][0]
    assert {"kind", "task_id", "record", "message", "action", "evidence"} <= set(d)


def test_lint_lists_unparsed_steps(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "g.csv"
    path.write_text("Task No.,Step No.,Text\n1,1,gates\n1,2,Go back\n")
    report = json.loads(runner.invoke(cli, ["gold", "lint", str(path), "--format", "json"]).stdout)
    assert report["unparsed"] == [{"task_id": "1", "index": 0, "step_no": "1", "text": "gates"}]


def test_lint_table(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["gold", "lint", str(GOLD / "gold_small.csv"), "--tasks", str(GOLD / "tasks_small.json")])
    assert result.exit_code == 0, result.output
    assert "gold_small.csv (csv): 3 tasks, 9 steps, 100.00% parsed" in result.output
    assert "Steps per action kind" in result.output
    assert "empty_task_id" in result.output and "no_gold" in result.output


def test_bad_input_is_a_one_line_error(runner: CliRunner) -> None:
    for name in ("empty.csv", "missing_columns.csv"):
        result = runner.invoke(cli, ["gold", "lint", str(GOLD / name)])
        assert result.exit_code == 1
        assert result.output.startswith("Error: ") and "expected a header row" in result.output
        assert "Traceback" not in result.output
    result = runner.invoke(cli, ["gold", "lint", str(GOLD / "gold_small.csv"), "--format", "yaml"])
    assert result.exit_code == 2


@pytest.mark.shared_data
def test_lint_human_gold_json(runner: CliRunner, shared_data: Path) -> None:
    result = runner.invoke(cli, ["gold", "lint", str(shared_data / "webarena-human-gold" / "Golden Human Trajectories.xlsx"),
                                 "--tasks", str(shared_data / "webarena" / "test.raw.json"), "--format", "json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert (report["tasks"], report["steps"]) == (652, 4350)
    assert len(report["unparsed"]) <= 0.02 * 4350
