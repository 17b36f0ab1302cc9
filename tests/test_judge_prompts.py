"""Prompt templates and reply parsing (no server needed)."""

from __future__ import annotations

import pytest

from trajmetrics.errors import ConfigError
from trajmetrics.judges import PROMPT_VERSIONS, available_versions, load_template, parse_reply
from trajmetrics.judges._reply import ReplyError
from trajmetrics.judges._templates import MAX_THOUGHT_CHARS
from trajmetrics.matching.decision import JudgeQuestion


def test_every_task_has_a_shipped_versioned_template():
    assert set(PROMPT_VERSIONS) == {"step", "repeat", "requirement"}
    assert set(PROMPT_VERSIONS.values()) <= set(available_versions())
    for version in available_versions():
        tpl = load_template(version)
        assert tpl.version == version and len(tpl.sha256) == 64


@pytest.mark.parametrize("task", ["step", "repeat", "requirement"])
def test_render_places_every_input(task):
    q = JudgeQuestion(task=task, left="type 'red shoes'  +Enter", right="Search for red shoes",
                      intent="Buy red shoes", thought="I search first")
    system, user = load_template(PROMPT_VERSIONS[task]).render(q.key_payload())
    assert system["role"] == "system" and user["role"] == "user"
    assert "JSON" in system["content"] and "MATCH" in system["content"]
    assert "type 'red shoes' +Enter" in user["content"]  # normalised whitespace
    assert "Search for red shoes" in user["content"] and "Buy red shoes" in user["content"]
    assert "$" not in user["content"].replace("$5", "")  # no placeholder left
    assert not user["content"].startswith("#")  # comments are not sent


def test_missing_context_is_said_and_long_thoughts_are_cut():
    tpl = load_template("step_v1")
    user = tpl.render({"left": "click 'A'", "right": "Click A", "intent": "", "thought": ""})[1]["content"]
    assert "<task>(not recorded)</task>" in user and "<agent_thought>(not recorded)</agent_thought>" in user
    long = tpl.render({"left": "a", "right": "b", "thought": "x" * 10_000})[1]["content"]
    assert "x" * (MAX_THOUGHT_CHARS - 3) + "..." in long and "x" * MAX_THOUGHT_CHARS not in long


def test_dollar_signs_in_inputs_are_kept():
    user = load_template("requirement_v1").render({"left": "It costs $25.00", "right": "$25"})[1]["content"]
    assert "It costs $25.00" in user and "<requirement>$25</requirement>" in user


@pytest.mark.parametrize("version", ["step_v9", "../cache", "STEP_V1", ""])
def test_unknown_template_lists_the_shipped_ones(version):
    with pytest.raises(ConfigError, match="expected one of repeat_v1, requirement_v1, step_v1"):
        load_template(version)


@pytest.mark.parametrize(
    "content, verdict, reason",
    [
        ('{"verdict": "MATCH", "reason": "same link"}', "MATCH", "same link"),
        ('{"verdict": " match ", "reason": "  two   spaces "}', "MATCH", "two spaces"),
        ('{"verdict": "No Match"}', "NO_MATCH", ""),
        ('{"verdict": "no-match", "reason": null}', "NO_MATCH", ""),
        ('{"VERDICT": "NO_MATCH", "Reason": "x", "confidence": 0.9}', "NO_MATCH", "x"),
        ('```json\n{"verdict": "MATCH", "reason": "r"}\n```', "MATCH", "r"),
        ('```\n{"verdict": "MATCH"}\n```', "MATCH", ""),
        ('\n  {"verdict": "NO_MATCH", "reason": "r"}  \n', "NO_MATCH", "r"),
    ],
)
def test_lenient_about_case_space_and_fences(content, verdict, reason):
    reply = parse_reply(content)
    assert (reply.verdict, reply.reason) == (verdict, reason)


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "empty reply"),
        ("   ", "empty reply"),
        ("MATCH", "reply is not JSON"),
        ('{"verdict": "MATCH"', "reply is not JSON"),
        ("[1, 2]", "reply is not a JSON object"),
        ('{"reason": "r"}', "reply has no 'verdict' field"),
        ('{"verdict": "YES"}', "reply verdict must be MATCH or NO_MATCH, found 'YES'"),
        ('{"verdict": "UNSURE"}', "reply verdict must be MATCH or NO_MATCH, found 'UNSURE'"),
        ('{"verdict": true}', "reply verdict must be MATCH or NO_MATCH, found True"),
        ('{"verdict": "MATCH", "reason": 5}', "reply 'reason' must be text"),
    ],
)
def test_strict_about_the_value_set(content, message):
    with pytest.raises(ReplyError) as info:
        parse_reply(content)
    assert str(info.value).startswith(message)


def test_long_reasons_are_cut():
    reply = parse_reply('{"verdict": "MATCH", "reason": "' + "r" * 2000 + '"}')
    assert len(reply.reason) == 500 and reply.reason.endswith("...")
