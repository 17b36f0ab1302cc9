"""WebArena's own run output: ``render_<id>.html`` (a file or a folder of them), ``config_<id>.json`` beside it.

Per step the renderer writes ``h3.url``, ``div.state_obv``, ``div.prev_action`` (the previous action as the
model was told it), and inside ``div.predict_action``: ``div.raw_parsed_prediction`` (the model text),
``div.action_object`` and ``div.parsed_action`` (``action2str`` of the executed action).

Element accuracy (planned vs executed):

- planned = the triple-backtick block of the model text (``plan_block``: the last, as the reference
  script, or the first), parsed as a WebArena action;
- executed = ``div.parsed_action``, with role and name taken from its ``where [id] is ...`` description.

``stop [Early stop: ...]`` (and ``stop [ERROR: ...]``) is the harness stopping the run, not an answer: the
step is kept with ``early_stop=True`` and kind ``other``. A file that ends without any stop action is an
interrupted run and is marked aborted, as is ``stop [ERROR: ...]`` (an exception while asking the agent).
A step whose element was not in the page (``No match found`` / the next step's ``Attempt to perfom ...``)
gets that as its error.

The renderer does not escape the model text, so text between the markers is rebuilt from whatever the
HTML parser sees, start and end tags included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..actions.webarena import is_early_stop, is_error_stop, parse_action, planned_block
from ..errors import InputError
from ..model import Action, AgentStep, AgentTrajectory, ReadProblem
from ._common import ReadContext, natural_key, read_each, task_id_from_name

NAME = "webarena_render"
_CAPTURED = {"raw_parsed_prediction", "parsed_action", "prev_action", "url"}
_CHUNK = 1 << 20


class _RenderParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.header: list[str] | None = None  # text of the config <pre> before the first step
        self.in_header = False
        self.seen_step = False
        self.capture: str | None = None
        self.buf: list[str] = []
        self.url: str | None = None
        self.prediction: str | None = None
        self.prev: str | None = None
        self.steps: list[dict[str, Any]] = []

    def _classes(self, attrs: list[tuple[str, str | None]]) -> set[str]:
        for key, value in attrs:
            if key == "class" and value:
                return set(value.split())
        return set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.capture is not None:
            # unescaped model text: keep its tags as text (not the <a> of the URL heading, nor the opening <pre>)
            if self.capture != "url" and not (tag == "pre" and not self.buf):
                self.buf.append(self.get_starttag_text() or "")
            return
        if tag == "h2":
            self.seen_step = True
        if tag == "pre" and not self.seen_step and self.header is None:
            self.in_header, self.header = True, []
            return
        hit = self._classes(attrs) & _CAPTURED
        if hit and tag in ("div", "h3"):
            self.capture, self.buf = hit.pop(), []

    def handle_endtag(self, tag: str) -> None:
        if self.in_header and tag == "pre":
            self.in_header = False
            return
        if self.capture is None:
            return
        ends = {"raw_parsed_prediction": "pre", "parsed_action": "pre", "prev_action": "div", "url": "h3"}[self.capture]
        if tag != ends:
            if self.capture != "url":
                self.buf.append(f"</{tag}>")
            return
        text = "".join(self.buf)
        kind, self.capture, self.buf = self.capture, None, []
        if kind == "url":
            self.url = text.strip().removeprefix("URL:").strip() or None
        elif kind == "prev_action":
            self.prev = text.strip()
        elif kind == "raw_parsed_prediction":
            self.prediction = text
        else:
            self.steps.append({"url": self.url, "prediction": self.prediction, "prev": self.prev, "action": text})
            self.prediction = None

    def handle_data(self, data: str) -> None:
        if self.capture is not None:
            self.buf.append(data)
        elif self.in_header and self.header is not None:
            self.header.append(data)


def looks_like(path: Path) -> bool:
    """Detection: a render_<id>.html (or any .html with WebArena's step markers), or a folder of them."""
    if path.is_dir():
        return any(path.glob("render_*.html"))
    if path.suffix.lower() not in (".html", ".htm"):
        return False
    with open(path, "rb") as fh:
        head = fh.read(1 << 20)
    return b"parsed_action" in head or b"raw_parsed_prediction" in head or path.name.startswith("render_")


def files(path: Path) -> list[Path]:
    """The render files of a path."""
    if path.is_dir():
        return sorted(path.glob("render_*.html"), key=lambda p: natural_key(p.name))
    return [path]


def _header_fields(lines: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in "".join(lines or []).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and key.strip() not in out:
            out[key.strip()] = value.strip()
    return out


def _config_intent(path: Path, task_id: str) -> str | None:
    config = path.with_name(f"config_{task_id}.json")
    if not config.is_file():
        return None
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # the intent is optional; the render's own header is the fallback
    intent = data.get("intent") if isinstance(data, dict) else None
    return intent.strip() if isinstance(intent, str) and intent.strip() else None


def read_file(path: Path, ctx: ReadContext) -> AgentTrajectory:
    """Read one render file; raises InputError on bad data."""
    label = str(path)
    parser = _RenderParser()
    with open(path, encoding="utf-8", errors="replace") as fh:
        while chunk := fh.read(_CHUNK):
            parser.feed(chunk)
    parser.close()
    header = _header_fields(parser.header)
    file_id = task_id_from_name(path.name)
    task_id = header.get("task_id") or file_id
    if not parser.steps:
        raise InputError(label, None, "div.parsed_action", "one per step (WebArena render_<id>.html)", "none")
    meta: dict[str, Any] = {}
    steps: list[AgentStep] = []
    aborted, abort_reason = False, None
    for n, raw in enumerate(parser.steps):
        executed_text = (raw["action"] or "").strip()
        action, error = parse_action(executed_text)
        if action is None:
            action = Action(kind="other", raw=executed_text)
            error = error or "unrecognised action text"
        prediction = raw["prediction"]
        plan_raw = planned_block(prediction, ctx.plan_block)
        planned = parse_action(plan_raw, planned=True)[0] if plan_raw else None
        early = is_early_stop(executed_text) or is_error_stop(executed_text)
        if is_error_stop(executed_text):
            aborted, abort_reason = True, action.value
        if early:
            meta["early_stop"] = action.value
        steps.append(
            AgentStep(
                action=action,
                thought=prediction.strip() if isinstance(prediction, str) and prediction.strip() else None,
                planned=planned,
                planned_raw=plan_raw,
                url=raw["url"],
                error=error,
                early_stop=early,
                plan_source=(f"{ctx.plan_block}_block" if plan_raw else None),
            )
        )
        if n > 0 and raw["prev"] and raw["prev"].lower().startswith("attempt to perf") and steps[n - 1].error is None:
            steps[n - 1] = steps[n - 1].model_copy(update={"error": raw["prev"]})
    last = steps[-1].action
    final_answer = None
    if last.kind == "answer":
        final_answer = last.value or None
    elif not steps[-1].early_stop:
        aborted, abort_reason = True, "the render ends without a stop action (interrupted run)"
    return AgentTrajectory(
        task_id=task_id,
        steps=steps,
        intent=_config_intent(path, file_id) or header.get("intent") or None,
        final_answer=final_answer,
        aborted=aborted,
        abort_reason=abort_reason,
        source=label,
        format=NAME,
        meta=meta,
    )


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every render file under ``path``, one task at a time."""
    yield from read_each(path, files(path), "render_<id>.html files", lambda p: read_file(p, ctx),
                         lambda p: task_id_from_name(p.name))

