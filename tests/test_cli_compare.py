"""`trajmetrics compare`: paired differences between two reports."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from trajmetrics.cli.main import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARGS = [str(EXAMPLES / "agent_run.jsonl"), "--gold", str(EXAMPLES / "gold.jsonl")]


def test_compare_default_with_reference(tmp_path):
    r = CliRunner()
    a, b = tmp_path / "a.json", tmp_path / "b.jsonl"
    assert r.invoke(cli, ["score", *ARGS, "--format", "json", "-o", str(a)]).exit_code == 0
    assert r.invoke(cli, ["score", *ARGS, "--format", "jsonl", "--preset", "reference", "-o", str(b)]).exit_code == 0
    res = r.invoke(cli, ["compare", str(a), str(b), "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = {x["metric"]: x for x in json.loads(res.stdout)}
    ta = {t["task_id"]: t for t in json.loads(a.read_text())["tasks"]}
    tb = {json.loads(line)["task_id"]: json.loads(line) for line in b.read_text().splitlines()
          if json.loads(line)["type"] == "task"}
    expected = sum(tb[t]["recovery_rate"] - ta[t]["recovery_rate"] for t in ta) / len(ta)
    assert abs(rows["recovery_rate"]["difference"]["mean_diff"] - expected) < 1e-12
    assert rows["recovery_rate"]["difference"]["mean_diff"] < 0   # lookahead 0 recovers less
    assert rows["partial_success_rate"]["difference"]["n"] == 2    # only tasks where it applies
    table = r.invoke(cli, ["compare", str(a), str(b)])
    assert table.exit_code == 0 and "recovery_rate" in table.output


def test_compare_bad_file_is_one_line_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    res = CliRunner().invoke(cli, ["compare", str(bad), str(bad)])
    assert res.exit_code == 1
    assert str(bad) in res.output and "tasks" in res.output and "Traceback" not in res.output
