"""The LLM judge over any OpenAI-compatible chat-completions endpoint (METRICS.md section 6).

One question = one pair the rules were UNSURE about. Per judge (one per run):

- identical questions (same normalised inputs) are asked once; the others are ``deduplicated``;
- each of the ``samples`` calls per question is cached on disk under its own key (sample index included);
- uncached calls run on a thread pool of ``concurrency`` workers shared by every ``ask()``;
- ``max_calls`` caps the calls sent (cache hits are free); questions past it get ``verdict=None``,
  ``error="budget exhausted"``; with ``max_calls=0`` the judge answers from the cache only;
- 429, 5xx, 408/409, timeouts and connection errors are retried ``max_retries`` times with exponential
  back-off and jitter (a ``Retry-After`` header wins); other failures are not retried;
- a failure (after retries), a refusal or a reply that is not a valid verdict gives ``verdict=None`` with
  ``error`` and is never cached, so the next run asks again. The caller resolves ``None`` by
  ``unsure_policy`` and reports it;
- a rejected key (401/403) or an unknown model/endpoint (404) stops the run with a ConfigError, because
  every other question would fail the same way.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from ..matching.decision import JudgeAnswer, JudgeQuestion
from ._reply import ReplyError, parse_reply
from ._templates import JUDGE_TASKS, PROMPT_VERSIONS, PromptTemplate, load_template
from .cache import JudgeCache, cache_key, normalise_base_url

KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"
DEFAULT_MODEL = "gpt-4o-mini"
NO_KEY_MESSAGE = (
    f"No key found - set {KEY_ENV} (any value for a local --base-url server) or pass --judge none"
)

BACKOFF_BASE = 0.5
BACKOFF_CAP = 20.0
RETRY_AFTER_CAP = 60.0
_MAX_ERROR_EXAMPLES = 5
_COUNTERS = (
    "questions",
    "deduplicated",
    "cache_hits",
    "cache_misses",
    "calls",
    "requests",
    "retries",
    "errors",
    "budget_exhausted",
    "ties",
    "fallbacks",
    "tokens_in",
    "tokens_out",
)


def _sleep(seconds: float) -> None:
    # module-level so tests can replace it and run retries without waiting
    time.sleep(seconds)


def backoff_delay(attempt: int, retry_after: float | None = None) -> float:
    """Seconds to wait before retry ``attempt`` (0-based): ``Retry-After`` if given, else full-jitter exponential.

    >>> 0 <= backoff_delay(0) <= BACKOFF_BASE and backoff_delay(2, retry_after=3.0) == 3.0
    True
    """
    if retry_after is not None and retry_after >= 0:
        return min(retry_after, RETRY_AFTER_CAP)
    # full jitter: spreads retries of many workers hit by the same 429 burst
    return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt))


@dataclass
class _Sample:
    verdict: str | None
    reason: str | None = None
    error: str | None = None
    cached: bool = False


class _CallFailed(Exception):
    """One call ended without a verdict (after retries); the message goes into JudgeAnswer.error."""


class OpenAIJudge:
    """Answers judge questions with an OpenAI-compatible model, cached on disk. Implements ``Judge``.

    ``model``/``base_url``/``api_key`` select the endpoint (``base_url`` defaults to ``$OPENAI_BASE_URL``,
    then OpenAI; the key to ``$OPENAI_API_KEY``). ``cache_dir`` defaults to ``$TRAJMETRICS_CACHE_DIR`` or the
    user cache folder; ``cache=False`` disables the disk cache. ``samples`` > 1 asks each question that
    many times (each sample cached separately) and takes the majority of the valid answers; a tie gives
    ``verdict=None`` (``error="tie: ..."``) so ``unsure_policy`` decides. Votes only differ when the model
    is not deterministic: pair ``samples`` with ``temperature`` > 0.
    """

    kind = "openai"
    """What reports call this judge (`--judge openai`)."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        base_url: str | None = None,
        api_key: str | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        concurrency: int = 8,
        max_calls: int | None = None,
        samples: int = 1,
        timeout: float = 30.0,
        max_retries: int = 4,
        *,
        temperature: float = 0.0,
        cache: bool = True,
        prompt_versions: dict[str, str] | None = None,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError("--model: expected a model name, found an empty string")
        _check_int("--judge-concurrency", concurrency, 1)
        _check_int("--judge-samples", samples, 1)
        _check_int("max_retries", max_retries, 0)
        if max_calls is not None:
            _check_int("--judge-max-calls", max_calls, 0)
        if not timeout or timeout <= 0:
            raise ConfigError(f"--judge-timeout: expected seconds > 0, found {timeout!r}")
        if temperature < 0 or temperature > 2:
            raise ConfigError(f"temperature: expected a number in [0, 2], found {temperature!r}")

        key = api_key or os.environ.get(KEY_ENV)
        if not key:
            raise ConfigError(NO_KEY_MESSAGE)

        self.model = model.strip()
        self.base_url = normalise_base_url(base_url or os.environ.get(BASE_URL_ENV))
        self.concurrency = concurrency
        self.max_calls = max_calls
        self.samples = samples
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.temperature = float(temperature)

        versions = dict(PROMPT_VERSIONS)
        unknown = set(prompt_versions or {}) - set(JUDGE_TASKS)
        if unknown:
            raise ConfigError(
                f"prompt_versions: unknown judge task {sorted(unknown)[0]!r}: expected one of {', '.join(JUDGE_TASKS)}"
            )
        versions.update(prompt_versions or {})
        self.templates: dict[str, PromptTemplate] = {t: load_template(v) for t, v in versions.items()}
        # strict=False: a broken cache folder warns and the run goes on uncached
        self.cache: JudgeCache | None = JudgeCache(cache_dir, strict=False) if cache else None

        # imported here so `trajmetrics --help` and rule-only runs never pay for the openai import
        import openai

        self._openai = openai
        self._client = openai.OpenAI(base_url=self.base_url, api_key=key, max_retries=0, timeout=self.timeout)

        self._lock = threading.Lock()
        self._counts = dict.fromkeys(_COUNTERS, 0)
        self._error_examples: list[str] = []
        self._memo: dict[str, JudgeAnswer] = {}
        self._pending: dict[str, cf.Future[JudgeAnswer]] = {}
        self._executor = cf.ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="trajmetrics-judge")

    # -- public ----------------------------------------------------------------------------------------
    def ask(self, questions: list[JudgeQuestion]) -> list[JudgeAnswer]:
        """Answer every question, in order. Never raises for a failed call; raises ConfigError for a bad key."""
        slots: list[JudgeAnswer | cf.Future[JudgeAnswer]] = []
        owned: dict[str, tuple[JudgeQuestion, cf.Future[JudgeAnswer]]] = {}
        with self._lock:
            self._counts["questions"] += len(questions)
            for q in questions:
                qkey = _question_key(q)
                if qkey in self._memo:
                    self._counts["deduplicated"] += 1
                    slots.append(self._memo[qkey])
                elif qkey in self._pending:
                    self._counts["deduplicated"] += 1
                    slots.append(self._pending[qkey])
                else:
                    future: cf.Future[JudgeAnswer] = cf.Future()
                    self._pending[qkey] = future
                    owned[qkey] = (q, future)
                    slots.append(future)
        try:
            self._resolve(owned)
        except BaseException as exc:
            with self._lock:
                for qkey, (_, future) in owned.items():
                    self._pending.pop(qkey, None)
                    if not future.done():
                        future.set_exception(exc)
            raise
        answers = [s.result() if isinstance(s, cf.Future) else s for s in slots]
        with self._lock:
            self._counts["fallbacks"] += sum(1 for a in answers if a.verdict is None)
        return [a.model_copy() for a in answers]

    def stats(self) -> dict[str, Any]:
        """Counters for the run report (see the module docstring) plus the judge settings."""
        with self._lock:
            out: dict[str, Any] = dict(self._counts)
            out["error_examples"] = list(self._error_examples)
        out.update(
            model=self.model,
            base_url=self.base_url,
            samples=self.samples,
            max_calls=self.max_calls,
            prompt_versions={t: tpl.version for t, tpl in self.templates.items()},
            cache_dir=str(self.cache.directory) if self.cache is not None else None,
            cache_read_errors=self.cache.read_errors if self.cache is not None else 0,
            cache_write_errors=self.cache.write_errors if self.cache is not None else 0,
            cache_error=self.cache.open_error if self.cache is not None else None,
        )
        return out

    def close(self) -> None:
        """Stop the worker threads and close the cache."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self.cache is not None:
            self.cache.close()
        self._client.close()

    def __enter__(self) -> "OpenAIJudge":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- one batch ---------------------------------------------------------------------------------------
    def _sample_key(self, q: JudgeQuestion, sample: int) -> str:
        tpl = self.templates[q.task]
        return cache_key(
            task=q.task,
            model=self.model,
            base_url=self.base_url,
            prompt_version=tpl.version,
            prompt_sha=tpl.sha256,
            sampling={"temperature": self.temperature},
            inputs=q.key_payload(),
            sample=sample,
        )

    def _resolve(self, owned: dict[str, tuple[JudgeQuestion, cf.Future[JudgeAnswer]]]) -> None:
        results: dict[str, list[_Sample | None]] = {}
        jobs: dict[cf.Future[_Sample], tuple[str, int]] = {}
        exhausted: set[str] = set()
        # cache lookups and budget reservations happen here, in question order, so which questions fit
        # a budget does not depend on thread timing
        for qkey, (q, _) in owned.items():
            samples: list[_Sample | None] = [None] * self.samples
            missing: list[int] = []
            for s in range(self.samples):
                hit = self.cache.get(self._sample_key(q, s)) if self.cache is not None else None
                if hit is not None:
                    samples[s] = _Sample(hit["verdict"], hit.get("reason"), cached=True)
                else:
                    missing.append(s)
            results[qkey] = samples
            with self._lock:
                self._counts["cache_hits"] += self.samples - len(missing)
                self._counts["cache_misses"] += len(missing) if self.cache is not None else 0
                if missing and self.max_calls is not None and self._counts["calls"] + len(missing) > self.max_calls:
                    # all-or-nothing per question: a partial vote would not be the configured vote
                    self._counts["budget_exhausted"] += 1
                    exhausted.add(qkey)
                    continue
                self._counts["calls"] += len(missing)
            for s in missing:
                jobs[self._executor.submit(self._ask_one, q, s)] = (qkey, s)

        try:
            for future in cf.as_completed(jobs):
                qkey, s = jobs[future]
                results[qkey][s] = future.result()
        except BaseException:
            for future in jobs:
                future.cancel()
            raise

        with self._lock:
            for qkey, (_, future) in owned.items():
                if qkey in exhausted:
                    answer = JudgeAnswer(verdict=None, error="budget exhausted")
                else:
                    answer = self._vote([s for s in results[qkey] if s is not None])
                    if answer.error and answer.error.startswith("tie:"):
                        self._counts["ties"] += 1
                self._memo[qkey] = answer
                self._pending.pop(qkey, None)
                future.set_result(answer)

    def _vote(self, samples: list[_Sample]) -> JudgeAnswer:
        valid = [s for s in samples if s.verdict is not None]
        cached = bool(samples) and all(s.cached for s in samples)
        if not valid:
            errors = [s.error for s in samples if s.error]
            return JudgeAnswer(verdict=None, error=errors[0] if errors else "no answer", cached=False)
        n_match = sum(1 for s in valid if s.verdict == "MATCH")
        n_no = len(valid) - n_match
        if n_match == n_no:
            return JudgeAnswer(verdict=None, error=f"tie: {n_match} MATCH vs {n_no} NO_MATCH", cached=cached)
        verdict = "MATCH" if n_match > n_no else "NO_MATCH"
        reason = next(s.reason for s in valid if s.verdict == verdict)
        if self.samples > 1:
            reason = f"[{n_match} MATCH, {n_no} NO_MATCH] {reason or ''}".strip()
        return JudgeAnswer(verdict=verdict, reason=reason, cached=cached)

    # -- one call ----------------------------------------------------------------------------------------
    def _ask_one(self, q: JudgeQuestion, sample: int) -> _Sample:
        inputs = q.key_payload()
        messages = self.templates[q.task].render(inputs)
        try:
            reply, tokens_in, tokens_out = self._call(messages)
        except _CallFailed as exc:
            self._note_error(str(exc))
            return _Sample(None, error=str(exc))
        if self.cache is not None:
            tpl = self.templates[q.task]
            self.cache.set(
                self._sample_key(q, sample),
                {
                    "verdict": reply.verdict,
                    "reason": reply.reason,
                    "task": q.task,
                    "model": self.model,
                    "prompt_version": tpl.version,
                    "sample": sample,
                    "tokens_in": tokens_in,
                    "tokens_out": tokens_out,
                    "created": round(time.time(), 3),
                },
                model=self.model,
            )
        return _Sample(reply.verdict, reply.reason)

    def _call(self, messages: list[dict[str, str]]) -> tuple[Any, int, int]:
        oa = self._openai
        attempt = 0
        while True:
            with self._lock:
                self._counts["requests"] += 1
            retry_after: float | None = None
            try:
                response = self._client.chat.completions.create(
                    model=self.model,
                    messages=messages,  # type: ignore[arg-type]
                    temperature=self.temperature,
                    response_format={"type": "json_object"},
                )
            except oa.APIStatusError as exc:
                code = exc.status_code
                if code in (401, 403):
                    raise ConfigError(
                        f"the judge endpoint {self.base_url} rejected the key (HTTP {code}) - "
                        f"check {KEY_ENV} or pass --judge none"
                    ) from None
                if code == 404:
                    raise ConfigError(
                        f"the judge endpoint {self.base_url} answered 404 for model {self.model!r} - "
                        "check --model and --base-url"
                    ) from None
                failure = f"HTTP {code}: {_api_message(exc)}"
                if not (code in (408, 409, 429) or code >= 500):
                    raise _CallFailed(failure) from None
                retry_after = _retry_after(exc)
            except oa.APITimeoutError:
                failure = f"timeout after {self.timeout:g}s"
            except oa.APIConnectionError as exc:
                failure = f"connection error: {exc}"
            else:
                return self._read(response)
            if attempt >= self.max_retries:
                tries = attempt + 1
                raise _CallFailed(f"{failure} ({tries} attempt{'s' if tries > 1 else ''})")
            delay = backoff_delay(attempt, retry_after)
            attempt += 1
            with self._lock:
                self._counts["retries"] += 1
            _sleep(delay)

    def _read(self, response: Any) -> tuple[Any, int, int]:
        usage = getattr(response, "usage", None)
        tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
        tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
        with self._lock:
            self._counts["tokens_in"] += tokens_in
            self._counts["tokens_out"] += tokens_out
        if not response.choices:
            raise _CallFailed("reply has no choices")
        message = response.choices[0].message
        if getattr(message, "refusal", None):
            raise _CallFailed(f"refusal: {' '.join(message.refusal.split())[:200]}")
        try:
            reply = parse_reply(message.content)
        except ReplyError as exc:
            raise _CallFailed(str(exc)) from None
        return reply, tokens_in, tokens_out

    def _note_error(self, message: str) -> None:
        with self._lock:
            self._counts["errors"] += 1
            if message not in self._error_examples and len(self._error_examples) < _MAX_ERROR_EXAMPLES:
                self._error_examples.append(message)


def _question_key(q: JudgeQuestion) -> str:
    return json.dumps(q.key_payload(), sort_keys=True, ensure_ascii=False)


def _check_int(name: str, value: Any, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{name}: expected an integer >= {minimum}, found {value!r}")


def _retry_after(exc: Any) -> float | None:
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return float(raw) / scale
        except ValueError:
            return None  # an HTTP date: fall back to exponential back-off
    return None


def _api_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:200]
    return str(getattr(exc, "message", exc))[:200]
