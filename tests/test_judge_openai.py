"""OpenAIJudge through the real openai client against the fake HTTP server (no network)."""

from __future__ import annotations

import json
import time

import pytest
from fake_openai import Reply, fake_openai, payload, refusal, status, text, user_text, verdict  # noqa: F401

import trajmetrics.judges.openai_judge as oj
from trajmetrics.errors import ConfigError
from trajmetrics.judges import JudgeCache, OpenAIJudge
from trajmetrics.matching.decision import JudgeQuestion


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    """Retries run without waiting; the waits asked for are recorded."""
    waits: list[float] = []
    monkeypatch.setattr(oj, "_sleep", waits.append)
    return waits


@pytest.fixture
def make(fake_openai, tmp_path):
    judges: list[OpenAIJudge] = []

    def factory(**kw) -> OpenAIJudge:
        kw.setdefault("model", "test-model")
        kw.setdefault("cache_dir", tmp_path / "cache")
        judge = OpenAIJudge(base_url=fake_openai.base_url, api_key="test-key", **kw)
        judges.append(judge)
        return judge

    yield factory
    for judge in judges:
        judge.close()


def q(left: str, right: str = "Click 'Orders'", task: str = "step", **kw) -> JudgeQuestion:
    return JudgeQuestion(task=task, left=left, right=right, **kw)


# -- requests and caching -------------------------------------------------------------------------------


def test_request_is_temperature_zero_json_mode_with_the_rendered_prompt(make, fake_openai):
    fake_openai.queue(verdict("MATCH", "same link"))
    answer = make().ask([q("click link 'Orders'", intent="Find my orders", thought="I open the orders page")])[0]
    assert answer.verdict == "MATCH" and answer.reason == "same link" and not answer.cached
    body = fake_openai.requests[0]
    assert body["model"] == "test-model"
    assert body["temperature"] == 0
    assert body["response_format"] == {"type": "json_object"}
    prompt = user_text(body)
    for part in ("click link 'Orders'", "Click 'Orders'", "Find my orders", "I open the orders page"):
        assert part in prompt


def test_second_identical_run_makes_no_calls(make, fake_openai):
    questions = [q(f"click link 'Item {i}'") for i in range(3)]
    first = make()
    answers = first.ask(questions)
    assert fake_openai.count == 3
    assert first.stats()["calls"] == 3 and first.stats()["cache_misses"] == 3 and first.stats()["cache_hits"] == 0
    first.close()

    second = make()
    again = second.ask(questions)
    assert fake_openai.count == 3  # nothing new reached the server
    assert [a.verdict for a in again] == [a.verdict for a in answers]
    assert all(a.cached for a in again)
    s = second.stats()
    assert (s["calls"], s["cache_hits"], s["cache_misses"]) == (0, 3, 0)


def test_transport_settings_do_not_change_the_cache_key(make, fake_openai):
    make(timeout=5, concurrency=2, max_retries=1).ask([q("click 'A'")])
    make(timeout=9, concurrency=7, max_retries=3).ask([q("click 'A'")])
    assert fake_openai.count == 1


@pytest.mark.parametrize(
    "change",
    [{"model": "other-model"}, {"temperature": 0.7}, {"prompt_versions": {"step": "repeat_v1"}}],
    ids=["model", "temperature", "prompt-version"],
)
def test_output_settings_change_the_cache_key(make, fake_openai, change):
    make().ask([q("click 'A'")])
    make(**change).ask([q("click 'A'")])
    assert fake_openai.count == 2


def test_no_disk_cache_when_disabled(make, fake_openai, tmp_path):
    make(cache=False).ask([q("click 'A'")])
    make(cache=False).ask([q("click 'A'")])
    assert fake_openai.count == 2
    assert not (tmp_path / "cache").exists()


def test_identical_questions_in_a_run_are_asked_once(make, fake_openai):
    judge = make()
    answers = judge.ask([q("click 'A'"), q("click   'A' "), q("click 'B'"), q("click 'A'")])
    assert fake_openai.count == 2
    assert len(answers) == 4 and all(a.verdict == "NO_MATCH" for a in answers)
    judge.ask([q("click 'B'")])  # a later batch of the same run
    assert fake_openai.count == 2
    s = judge.stats()
    assert s["questions"] == 5 and s["deduplicated"] == 3 and s["calls"] == 2


def test_answers_come_back_in_question_order(make, fake_openai):
    # later questions answer faster, so replies arrive out of order
    def respond(body):
        n = int(user_text(body).split("item-")[1].split("<")[0])
        return verdict("MATCH" if n % 3 == 0 else "NO_MATCH", f"item {n}", delay=(12 - n) * 0.01)

    fake_openai.default = respond
    answers = make(concurrency=6).ask([q(f"click item-{n}") for n in range(12)])
    assert [a.reason for a in answers] == [f"item {n}" for n in range(12)]
    assert [a.verdict == "MATCH" for a in answers] == [n % 3 == 0 for n in range(12)]


def test_concurrency_is_bounded(make, fake_openai):
    fake_openai.default = lambda body: verdict("NO_MATCH", delay=0.15)
    start = time.perf_counter()
    make(concurrency=3).ask([q(f"click {i}") for i in range(12)])
    elapsed = time.perf_counter() - start
    assert fake_openai.count == 12
    assert 2 <= fake_openai.max_in_flight <= 3
    assert elapsed < 12 * 0.15  # ran in parallel, not one by one


# -- retries and failures -------------------------------------------------------------------------------


def test_429_then_success_honours_retry_after(make, fake_openai, no_backoff):
    fake_openai.queue(status(429, retry_after=1.5), verdict("MATCH"))
    judge = make()
    answer = judge.ask([q("click 'A'")])[0]
    assert answer.verdict == "MATCH" and answer.error is None
    assert fake_openai.count == 2 and no_backoff == [1.5]
    s = judge.stats()
    assert (s["calls"], s["requests"], s["retries"], s["errors"]) == (1, 2, 1, 0)


def test_500s_past_the_retry_limit_fail_that_question_only(make, fake_openai, no_backoff):
    fake_openai.default = lambda body: status(500) if "broken" in user_text(body) else verdict("MATCH")
    judge = make(max_retries=2)
    answers = judge.ask([q("click 'fine'"), q("click 'broken'")])
    assert answers[0].verdict == "MATCH"
    assert answers[1].verdict is None and "HTTP 500" in answers[1].error and "3 attempts" in answers[1].error
    assert fake_openai.count == 1 + 3
    assert len(no_backoff) == 2 and all(0 <= w <= oj.BACKOFF_CAP for w in no_backoff)
    s = judge.stats()
    assert s["errors"] == 1 and s["fallbacks"] == 1 and s["retries"] == 2
    assert any("HTTP 500" in e for e in s["error_examples"])
    # the failure was not cached: the next run asks again (and succeeds now)
    fake_openai.default = lambda body: verdict("NO_MATCH")
    assert make().ask([q("click 'broken'")])[0].verdict == "NO_MATCH"


def test_client_errors_are_not_retried(make, fake_openai):
    fake_openai.queue(status(400))
    answer = make().ask([q("click 'A'")])[0]
    assert answer.verdict is None and answer.error.startswith("HTTP 400")
    assert fake_openai.count == 1


def test_timeout_is_retried(make, fake_openai):
    fake_openai.queue(Reply(delay=2.0), verdict("MATCH"))
    judge = make(timeout=0.3)
    assert judge.ask([q("click 'A'")])[0].verdict == "MATCH"
    assert judge.stats()["retries"] == 1


def test_timeouts_past_the_retry_limit(make, fake_openai):
    fake_openai.default = lambda body: Reply(delay=2.0)
    answer = make(timeout=0.2, max_retries=1).ask([q("click 'A'")])[0]
    assert answer.verdict is None and answer.error == "timeout after 0.2s (2 attempts)"


def test_connection_error_is_reported(make, fake_openai, tmp_path):
    judge = OpenAIJudge("m", base_url="http://127.0.0.1:9/v1", api_key="k", cache_dir=tmp_path, max_retries=1)
    answer = judge.ask([q("click 'A'")])[0]
    judge.close()
    assert answer.verdict is None and answer.error.startswith("connection error")


@pytest.mark.parametrize(
    "reply, error",
    [
        (text("Sure! The steps match."), "reply is not JSON"),
        (payload({"reason": "no verdict here"}), "reply has no 'verdict' field"),
        (payload({"verdict": "yes", "reason": "x"}), "reply verdict must be MATCH or NO_MATCH, found 'YES'"),
        (payload(["MATCH"]), "reply is not a JSON object"),
        (text(""), "empty reply"),
        (refusal("I can't help with that."), "refusal: I can't help with that."),
    ],
    ids=["not-json", "missing-verdict", "bad-verdict", "not-object", "empty", "refusal"],
)
def test_bad_replies_fail_and_are_not_cached(make, fake_openai, reply, error):
    fake_openai.queue(reply)
    judge = make()
    answer = judge.ask([q("click 'A'")])[0]
    assert answer.verdict is None and answer.error.startswith(error)
    assert judge.stats()["errors"] == 1 and fake_openai.count == 1
    # next run asks again
    assert make().ask([q("click 'A'")])[0].verdict == "NO_MATCH"
    assert fake_openai.count == 2


def test_lenient_reply_is_accepted(make, fake_openai):
    fake_openai.queue(text('```json\n{"Verdict": " no match "}\n```'))
    answer = make().ask([q("click 'A'")])[0]
    assert answer.verdict == "NO_MATCH" and answer.reason == ""


def test_rejected_key_stops_the_run(make, fake_openai):
    fake_openai.default = lambda body: status(401)
    with pytest.raises(ConfigError, match="rejected the key .*OPENAI_API_KEY"):
        make().ask([q("click 'A'"), q("click 'B'")])


def test_missing_key_names_the_variable(monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError) as info:
        OpenAIJudge("m", cache_dir=tmp_path)
    assert str(info.value) == (
        "No key found - set OPENAI_API_KEY (any value for a local --base-url server) or pass --judge none"
    )


def test_key_and_base_url_from_the_environment(monkeypatch, fake_openai, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "env-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url + "/")
    judge = OpenAIJudge("m", cache_dir=tmp_path)
    assert judge.ask([q("click 'A'")])[0].verdict == "NO_MATCH"
    assert judge.base_url == fake_openai.base_url
    judge.close()


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"concurrency": 0}, "--judge-concurrency: expected an integer >= 1, found 0"),
        ({"samples": 0}, "--judge-samples: expected an integer >= 1, found 0"),
        ({"max_calls": -1}, "--judge-max-calls: expected an integer >= 0, found -1"),
        ({"timeout": 0}, "--judge-timeout: expected seconds > 0, found 0"),
        ({"prompt_versions": {"step": "step_v99"}}, "unknown prompt template 'step_v99': expected one of"),
    ],
)
def test_bad_settings_are_config_errors(make, kw, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make(**kw)


# -- budget -----------------------------------------------------------------------------------------------


def test_budget_runs_out_in_question_order(make, fake_openai):
    judge = make(max_calls=2, concurrency=4)
    answers = judge.ask([q(f"click {i}") for i in range(5)])
    assert [a.verdict for a in answers] == ["NO_MATCH", "NO_MATCH", None, None, None]
    assert all(a.error == "budget exhausted" for a in answers[2:])
    assert fake_openai.count == 2
    # later batches are out of budget too
    assert judge.ask([q("click 9")])[0].error == "budget exhausted"
    s = judge.stats()
    assert (s["calls"], s["budget_exhausted"], s["fallbacks"]) == (2, 4, 4)


def test_cache_hits_do_not_use_the_budget(make, fake_openai):
    make().ask([q("click 0"), q("click 1")])
    judge = make(max_calls=0)  # cache only
    answers = judge.ask([q("click 0"), q("click 1"), q("click 2")])
    assert [a.verdict for a in answers] == ["NO_MATCH", "NO_MATCH", None]
    assert fake_openai.count == 2
    assert judge.stats()["cache_hits"] == 2 and judge.stats()["budget_exhausted"] == 1


# -- majority vote -----------------------------------------------------------------------------------------


def test_majority_of_three_samples(make, fake_openai):
    fake_openai.queue(verdict("MATCH", "same"), verdict("NO_MATCH", "other"), verdict("MATCH", "same"))
    judge = make(samples=3)
    answer = judge.ask([q("click 'A'")])[0]
    assert answer.verdict == "MATCH" and answer.reason == "[2 MATCH, 1 NO_MATCH] same"
    assert fake_openai.count == 3 and judge.stats()["calls"] == 3
    # each sample is cached under its own key
    again = make(samples=3).ask([q("click 'A'")])[0]
    assert again.verdict == "MATCH" and again.cached and fake_openai.count == 3


def test_samples_reuse_a_single_sample_cache(make, fake_openai):
    make().ask([q("click 'A'")])
    make(samples=3).ask([q("click 'A'")])
    assert fake_openai.count == 1 + 2  # sample 0 is the samples=1 answer


def test_tie_gives_no_verdict(make, fake_openai):
    fake_openai.queue(verdict("MATCH"), verdict("NO_MATCH"))
    judge = make(samples=2)
    answer = judge.ask([q("click 'A'")])[0]
    assert answer.verdict is None and answer.error == "tie: 1 MATCH vs 1 NO_MATCH"
    assert judge.stats()["ties"] == 1 and judge.stats()["fallbacks"] == 1


def test_failed_samples_do_not_vote(make, fake_openai):
    fake_openai.queue(verdict("NO_MATCH"), text("garbage"), text("garbage"))
    answer = make(samples=3).ask([q("click 'A'")])[0]
    assert answer.verdict == "NO_MATCH"


def test_all_samples_failed_reports_the_error(make, fake_openai):
    fake_openai.default = lambda body: text("garbage")
    answer = make(samples=2).ask([q("click 'A'")])[0]
    assert answer.verdict is None and answer.error.startswith("reply is not JSON")


# -- cache robustness ---------------------------------------------------------------------------------------


def test_corrupt_cache_entry_is_a_miss(make, fake_openai, tmp_path):
    judge = make()
    judge.ask([q("click 'A'")])
    key = judge._sample_key(q("click 'A'"), 0)
    judge.close()
    import diskcache

    with diskcache.Cache(str(tmp_path / "cache")) as raw:
        raw.set(key, "{not json")
    again = make()
    assert again.ask([q("click 'A'")])[0].verdict == "NO_MATCH"
    assert fake_openai.count == 2 and again.stats()["cache_read_errors"] == 1


def test_values_are_json_text(make, tmp_path):
    judge = make()
    judge.ask([q("click 'A'")])
    key = judge._sample_key(q("click 'A'"), 0)
    judge.close()
    import diskcache

    with diskcache.Cache(str(tmp_path / "cache")) as raw:
        value = raw.get(key)
    assert isinstance(value, str)
    stored = json.loads(value)
    assert stored["verdict"] == "NO_MATCH" and stored["model"] == "test-model" and stored["task"] == "step"
    assert stored["prompt_version"] == "step_v1" and stored["tokens_in"] == 50


def test_clear_one_model_keeps_the_others(make, fake_openai, tmp_path):
    make(model="model-a").ask([q("click 'A'")])
    make(model="model-b").ask([q("click 'A'")])
    with JudgeCache(tmp_path / "cache") as cache:
        assert cache.stats()["models"] == {"model-a": 1, "model-b": 1}
        assert cache.clear(model="model-a") == 1
        assert cache.stats()["models"] == {"model-b": 1}
    make(model="model-b").ask([q("click 'A'")])
    assert fake_openai.count == 2
    make(model="model-a").ask([q("click 'A'")])
    assert fake_openai.count == 3


def test_broken_cache_folder_warns_and_the_run_goes_on(fake_openai, tmp_path):
    (tmp_path / "cache.db").write_bytes(b"not sqlite" * 200)
    with pytest.warns(RuntimeWarning, match="going on without a cache"):
        judge = OpenAIJudge("m", base_url=fake_openai.base_url, api_key="k", cache_dir=tmp_path)
    assert judge.ask([q("click 'A'")])[0].verdict == "NO_MATCH"
    s = judge.stats()
    assert s["cache_error"].startswith("cannot open the judge cache") and s["cache_write_errors"] == 1
    judge.close()
