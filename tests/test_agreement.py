"""`trajmetrics agreement`: pair scores and metric errors against labels, on hand-made and real data."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from trajmetrics import Action, AgentStep, AgentTrajectory, GoldStep, GoldTrajectory, MetricConfig, Target
from trajmetrics.cli.main import cli
from trajmetrics.errors import InputError
from trajmetrics.matching.agreement import TaskLabels, _pair_scores, agreement, read_labels


def click(name: str) -> Action:
    return Action(kind="click", target=Target(role="link", name=name))


def _task() -> tuple[AgentTrajectory, GoldTrajectory]:
    gold = GoldTrajectory(task_id="7", steps=[
        GoldStep(text="Click on the 'Issues' link", action=click("Issues")),
        GoldStep(text="Click on the 'Labels' link", action=click("Labels")),
        GoldStep(text="Click on the 'bug' link", action=click("bug")),
    ])
    agent = AgentTrajectory(task_id="7", steps=[AgentStep(action=click(n)) for n in ("Issues", "Milestones", "bug")])
    return agent, gold


def test_pair_scores_and_kappa_by_hand():
    s = _pair_scores(tp=8, fp=2, fn=2, cells=100)
    assert s.precision == pytest.approx(0.8) and s.recall == pytest.approx(0.8) and s.f1 == pytest.approx(0.8)
    # po = 0.96; pe = 0.1*0.1 + 0.9*0.9 = 0.82; kappa = 0.14 / 0.18
    assert s.kappa == pytest.approx(0.14 / 0.18)


def test_perfect_agreement_and_one_miss():
    agent, gold = _task()
    labels = {"7": TaskLabels(task_id="7", matches=[{"g": 0, "a": 0}, {"g": 1, "a": None}, {"g": 2, "a": 2}])}
    r = agreement([agent], [gold], labels)
    assert (r.pairs.precision, r.pairs.recall, r.pairs.f1, r.pairs.kappa) == (1.0, 1.0, 1.0, 1.0)
    assert r.step_success_mae == 0.0 and r.disagreements == []

    labels = {"7": TaskLabels(task_id="7", matches=[{"g": 0, "a": 0}, {"g": 1, "a": 1}, {"g": 2, "a": 2}])}
    r = agreement([agent], [gold], labels)
    assert r.pairs.true_positive == 2 and r.pairs.false_negative == 1 and r.pairs.false_positive == 0
    assert r.step_success_mae == pytest.approx(1 / 3)
    [d] = r.disagreements
    assert (d.kind, d.gold_index, d.agent_index, d.decision) == ("missed", 1, 1, "NO_MATCH")
    assert d.gold_text == "Click on the 'Labels' link" and "Milestones" in d.agent_action


def test_unlabelled_and_unscored_tasks():
    agent, gold = _task()
    labels = {"7": TaskLabels(task_id="7"), "8": TaskLabels(task_id="8")}
    r = agreement([agent], [gold], labels)
    assert r.tasks == 1 and r.missing == ["8"]


def test_read_labels_errors_name_line_and_field(tmp_path):
    p = tmp_path / "labels.jsonl"
    p.write_text('{"task_id": 1, "matches": []}\n{"task_id": 2, "matches": [{"g": "x"}]}\n')
    with pytest.raises(InputError) as e:
        read_labels(p)
    assert "line 2" in str(e.value) and "matches.0.g" in str(e.value) and str(p) in str(e.value)
    p.write_text('{"task_id": 1}\n{oops\n')
    with pytest.raises(InputError, match="line 2"):
        read_labels(p)


# --- On the real run and the reviewed labels in ../shared/data ---------------------------------

def _real_args(shared):
    return (
        [shared / "colorbrowseragent-webarena" / "results"],
        shared / "webarena-human-gold" / "Golden Human Trajectories.xlsx",
        shared / "labels" / "dev_alignment.jsonl",
    )


def test_rules_alone_agree_with_people_on_the_40_labelled_tasks(shared_data):
    agent, gold, labels = _real_args(shared_data)
    r = agreement(agent, gold, labels, MetricConfig(), tasks_path=shared_data / "webarena" / "test.raw.json")
    print(f"pairs P={r.pairs.precision:.3f} R={r.pairs.recall:.3f} F1={r.pairs.f1:.3f} kappa={r.pairs.kappa:.3f}; "
          f"MAE step={r.step_success_mae:.3f} recovery={r.recovery_mae:.3f} rep={r.repetitiveness_mae:.3f}; "
          f"UNSURE={r.unsure}")
    assert r.tasks == 40 and r.missing == []
    assert r.pairs.f1 >= 0.90
    assert r.step_success_mae <= 0.05


def test_agreement_cli_json(shared_data):
    agent, gold, labels = _real_args(shared_data)
    res = CliRunner().invoke(cli, ["agreement", str(agent[0]), "--gold", str(gold), "--labels", str(labels),
                                   "--tasks", str(shared_data / "webarena" / "test.raw.json"),
                                   "--task-id", "10,83", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data["pairs"]) >= {"precision", "recall", "f1", "kappa"}
    assert "step_success_mae" in data and isinstance(data["disagreements"], list)
    assert data["tasks"] == 2


def test_repeats_and_requirements_agree_with_labels(shared_data):
    agent, gold, labels = _real_args(shared_data)
    r = agreement(agent, gold, labels, MetricConfig(), tasks_path=shared_data / "webarena" / "test.raw.json")
    print(f"repeats P={r.repeats.precision:.3f} R={r.repeats.recall:.3f}; requirements "
          f"{r.requirements.agree}/{r.requirements.compared}")
    assert r.repeats.f1 >= 0.85
    assert r.requirements.compared >= 30 and r.requirements.accuracy >= 0.9
