"""`trajmetrics score` / `schema` through click's CliRunner: exit codes, output formats, bad input."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trajmetrics.cli.main import cli
from trajmetrics.metrics import METRIC_NAMES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
AGENT, GOLD = str(EXAMPLES / "agent_run.jsonl"), str(EXAMPLES / "gold.jsonl")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str):
    return runner.invoke(cli, list(args), catch_exceptions=False)


def test_table_is_default_and_shows_every_metric(runner):
    res = run(runner, "score", AGENT, "--gold", GOLD)
    assert res.exit_code == 0, res.output
    for label in ("recovery rate", "repetitiveness rate", "step success rate", "partial success rate",
                  "element accuracy rate", "95% CI"):
        assert label in res.output
    assert "tasks: scored 4" in res.output


def test_json_shape(runner):
    res = run(runner, "score", AGENT, "--gold", GOLD, "--format", "json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert set(data) >= {"summary", "tasks", "config"}
    for m in METRIC_NAMES:
        assert set(data["summary"][m]) >= {"mean", "std", "n", "n_na", "ci95"}
    task = {t["task_id"]: t for t in data["tasks"]}
    assert set(task) == {"101", "102", "103", "104"}
    assert all(m in task["101"] for m in METRIC_NAMES)
    # task 101: composite type+Enter fulfils the 'type' and the 'Press enter' gold steps
    assert [0, 0] in task["101"]["matches"] and [1, 1] in task["101"]["matches"]
    assert task["102"]["repeats"] == [6]
    assert task["102"]["recovery"]["recoveries"] == task["102"]["recovery"]["incidents"] == 2
    assert task["101"]["partial_success_rate"] == 1.0 and task["103"]["partial_success_rate"] == 0.5
    assert task["102"]["partial_success_rate"] is None
    assert data["summary"]["partial_success_rate"]["n_na"] == 2
    assert data["config"]["lookahead"] == 5


def test_options_reach_the_config(runner):
    res = run(runner, "score", AGENT, "--gold", GOLD, "--format", "json", "--preset", "reference",
              "--lookahead", "2", "--repeat-exempt", "scroll", "--repeat-exempt", "click", "--step-order", "ordered")
    data = json.loads(res.stdout)
    cfg = data["config"]
    assert (cfg["preset"], cfg["lookahead"], cfg["unfinished"], cfg["step_matching"]) == ("reference", 2, "each", "greedy")
    assert cfg["repeat_exempt"] == ["scroll", "click"] and cfg["step_order"] == "ordered"
    # click repeats are exempt now, so task 102 has none
    assert {t["task_id"]: t["repeats"] for t in data["tasks"]}["102"] == []


def test_reference_preset_changes_recovery(runner):
    default = json.loads(run(runner, "score", AGENT, "--gold", GOLD, "--format", "json").stdout)
    ref = json.loads(run(runner, "score", AGENT, "--gold", GOLD, "--format", "json", "--preset", "reference").stdout)
    d = {t["task_id"]: t for t in default["tasks"]}
    r = {t["task_id"]: t for t in ref["tasks"]}
    # 103 skips a gold step: a skip-ahead recovery with lookahead 5, never recovered with lookahead 0
    assert d["103"]["recovery"]["recoveries"] == 1
    assert r["103"]["recovery"]["recoveries"] == 0


def test_jsonl_streams_one_task_per_line_then_summary(runner):
    res = run(runner, "score", AGENT, "--gold", GOLD, "--format", "jsonl")
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x["type"] for x in lines] == ["task"] * 4 + ["summary"]
    assert "summary" in lines[-1]


def test_csv(runner):
    res = run(runner, "score", AGENT, "--gold", GOLD, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert [r["task_id"] for r in rows] == ["101", "102", "103", "104"]
    assert float(rows[0]["step_success_rate"]) == pytest.approx(0.8)
    assert rows[1]["partial_success_rate"] == ""


def test_markdown_and_output_file(runner, tmp_path):
    out = tmp_path / "r.md"
    res = run(runner, "score", AGENT, "--gold", GOLD, "--format", "md", "-o", str(out))
    assert res.exit_code == 0 and res.stdout == ""
    assert out.read_text().startswith("## Summary")


def test_bad_option_exits_2(runner):
    res = runner.invoke(cli, ["score", AGENT, "--gold", GOLD, "--unfinished", "sometimes"])
    assert res.exit_code == 2
    assert "one" in res.output and "each" in res.output
    res = runner.invoke(cli, ["score", AGENT, "--gold", GOLD, "--repeat-exempt", "klick"])
    assert res.exit_code == 2


def test_malformed_record_is_one_line_error_and_others_still_scored(runner, tmp_path):
    lines = (EXAMPLES / "agent_run.jsonl").read_text().splitlines()
    broken = json.loads(lines[1])
    broken["steps"][0]["action"]["kind"] = "klick"
    bad = tmp_path / "run.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(broken), lines[2], "{not json", lines[3]]) + "\n")
    res = runner.invoke(cli, ["score", str(bad), "--gold", GOLD, "--format", "json"])
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    scored = sorted(t["task_id"] for t in data["tasks"] if t["status"] == "scored")
    assert scored == ["101", "103", "104"]
    errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2
    assert all(str(bad) in e for e in errors)
    assert any("line 2" in e and "kind" in e for e in errors)
    assert any("line 4" in e for e in errors)
    assert "Traceback" not in res.output


def test_missing_gold_file_is_a_usage_error(runner):
    res = runner.invoke(cli, ["score", AGENT, "--gold", "nope.jsonl"])
    assert res.exit_code == 2 and "nope.jsonl" in res.output


def test_tasks_only_on_one_side_are_reported(runner, tmp_path):
    gold_lines = GOLD and (EXAMPLES / "gold.jsonl").read_text().splitlines()
    gold = tmp_path / "gold.jsonl"
    extra = json.loads(gold_lines[0])
    extra["task_id"] = "999"
    gold.write_text("\n".join(gold_lines[1:] + [json.dumps(extra)]) + "\n")
    data = json.loads(run(runner, "score", AGENT, "--gold", str(gold), "--format", "json").stdout)
    status = {t["task_id"]: t["status"] for t in data["tasks"]}
    assert status["101"] == "missing_gold"
    assert data["gold_only"] == ["999"] and data["gold_only_count"] == 1


def test_task_id_filter(runner):
    data = json.loads(run(runner, "score", AGENT, "--gold", GOLD, "--format", "json", "--task-id", "102,104").stdout)
    assert [t["task_id"] for t in data["tasks"]] == ["102", "104"]


def test_schema(runner):
    for which in ("agent", "gold", "report", "config"):
        res = run(runner, "schema", which)
        assert res.exit_code == 0
        assert json.loads(res.stdout)["type"] == "object"
    assert "steps" in json.loads(run(runner, "schema", "agent").stdout)["properties"]


def test_help_and_version(runner):
    assert run(runner, "--help").exit_code == 0
    assert "0.1.0" in run(runner, "--version").output
