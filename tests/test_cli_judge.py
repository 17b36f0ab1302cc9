"""`trajmetrics score --judge openai` end to end: the real client, a fake server on 127.0.0.1, a disk cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trajmetrics.cli.main import cli
from trajmetrics.judges import openai_judge

from fake_openai import fake_openai, status, verdict  # noqa: F401  (fixture)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    monkeypatch.setattr(openai_judge, "_sleep", lambda seconds: None)


def score(server, cache: Path, *extra: str):
    args = ["score", str(EXAMPLES / "agent_run.jsonl"), "--gold", str(EXAMPLES / "gold.jsonl"), "--format", "json",
            "--judge", "openai", "--model", "fake-model", "--base-url", server.base_url, "--cache-dir", str(cache),
            *extra]
    res = CliRunner().invoke(cli, args, env={"OPENAI_API_KEY": "test-key"})
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def judged(report):
    return [u for t in report["tasks"] for u in t["unsure"] if u["source"] in ("judge", "cache")]


def test_judge_decides_unsure_pairs_then_the_cache_answers(fake_openai, tmp_path):  # noqa: F811
    fake_openai.default = lambda body: verdict("MATCH", "same control")
    cold = score(fake_openai, tmp_path)
    asked = fake_openai.count
    assert asked > 0 and cold["judge"]["calls"] == asked and cold["judge"]["kind"] == "openai"
    assert judged(cold) and all(u["verdict"] == "MATCH" and u["reason"] == "same control" for u in judged(cold))
    assert all(u["source"] == "judge" for u in judged(cold))

    fake_openai.reset_counts()
    warm = score(fake_openai, tmp_path)
    assert fake_openai.count == 0 and warm["judge"]["calls"] == 0 and warm["judge"]["cache_hits"] >= asked
    assert all(u["source"] == "cache" for u in judged(warm))
    assert warm["summary"] == cold["summary"]


def test_server_errors_fall_back_to_the_policy_and_are_reported(fake_openai, tmp_path):  # noqa: F811
    fake_openai.default = lambda body: status(500)
    report = score(fake_openai, tmp_path, "--unsure-policy", "reject")
    j = report["judge"]
    assert j["errors"] > 0 and j["fallbacks"] > 0
    fallbacks = [u for t in report["tasks"] for u in t["unsure"] if u["reason"] and "judge failed" in u["reason"]]
    assert fallbacks and all(u["source"] == "policy" and u["verdict"] == "NO_MATCH" for u in fallbacks)
    # failures are never cached: a healthy server is asked again
    fake_openai.reset_counts()
    fake_openai.default = lambda body: verdict("NO_MATCH")
    again = score(fake_openai, tmp_path)
    assert fake_openai.count > 0 and again["judge"]["errors"] == 0


def test_budget_zero_answers_from_the_cache_only(fake_openai, tmp_path):  # noqa: F811
    report = score(fake_openai, tmp_path, "--judge-max-calls", "0")
    assert fake_openai.count == 0 and report["judge"]["calls"] == 0 and report["judge"]["fallbacks"] > 0
