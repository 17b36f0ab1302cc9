"""Computer-use runs as JSON lines: OpenAI ``computer_call`` items and Anthropic ``computer`` tool inputs.

Grouping (either layout, told apart per line):

- one task per line: ``{"task_id": ..., "items": [...]}`` (the list may also be called ``output``,
  ``actions``, ``steps``, ``trajectory`` or ``messages``), with optional ``intent`` / ``task`` and
  ``final_answer``;
- one item per line, each with ``task_id``: lines are grouped by task id in order of first appearance
  (they need not be contiguous; the file is indexed, not loaded).

Items understood: OpenAI ``{"type": "computer_call", "action": {...}}``, ``reasoning`` (its summary text is
the next action's thought) and assistant ``message`` items; Anthropic ``tool_use`` blocks (``input`` holds
the action), ``text`` blocks (thought) and ``tool_result`` blocks with ``is_error`` (the error of that call),
also inside ``{"role": ..., "content": [...]}`` messages; and bare action objects
(``{"action": "left_click", "coordinate": [x, y]}``). Observations (``screenshot``, ``cursor_position``) are
skipped and counted in ``meta["skipped"]``. Text after the last action is the final answer, not a step.
Coordinates only: targets hold x and y. There is no separate plan (element accuracy is not applicable).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..actions.computer import SKIPPED, action_name, computer_action
from ..errors import InputError
from ..model import AgentStep, AgentTrajectory, ReadProblem
from ._common import ReadContext, found, get_field, group_jsonl, guarded, iter_jsonl

NAME = "computer_use"
LIST_KEYS = ("items", "output", "actions", "steps", "trajectory", "messages")
_OPENAI_ACTIONS = frozenset(
    {"click", "double_click", "drag", "keypress", "move", "screenshot", "scroll", "type", "wait"}
)


def looks_like_record(row: Any) -> bool:
    """A parsed JSON line in this format."""
    if not isinstance(row, dict):
        return False
    if row.get("type") == "computer_call" or (row.get("type") == "tool_use" and row.get("name") == "computer"):
        return True
    for key in LIST_KEYS:
        items = row.get(key)
        if isinstance(items, list) and any(_is_action_item(i) for i in items[:50]):
            return True
    return "task_id" in row and _is_action_item(row)


def _is_action_item(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    if item.get("type") in ("computer_call", "tool_use") or isinstance(item.get("coordinate"), list):
        return True
    content = item.get("content")
    return isinstance(content, list) and any(isinstance(c, dict) and c.get("type") == "tool_use" for c in content)


def _text_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for part in value:
            if isinstance(part, dict):
                t = part.get("text")
                if isinstance(t, str):
                    parts.append(t)
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    return ""


def _flatten(items: list[Any]) -> Iterator[tuple[int, Any]]:
    # messages with content lists are opened into their blocks; the index is the item's own
    for i, item in enumerate(items):
        if isinstance(item, dict) and "role" in item and isinstance(item.get("content"), list) and item.get("type") in (None, "message"):
            role = item.get("role")
            for block in item["content"]:
                if isinstance(block, dict) and block.get("type") in ("text", "output_text") and role != "assistant":
                    continue  # the user's text is the task, not the agent's thought
                yield i, block
        else:
            yield i, item


class _Builder:
    def __init__(self, label: str) -> None:
        self.label = label
        self.steps: list[AgentStep] = []
        self.pending_text: list[str] = []
        self.call_ids: dict[str, int] = {}
        self.skipped = 0

    def add(self, item: Any, where: str) -> None:
        if not isinstance(item, dict):
            raise InputError(self.label, where, None, "an item object", found(item))
        kind = item.get("type")
        if kind == "computer_call":
            action = get_field(item, "action", dict, file=self.label, where=where)
            self._action(action, item.get("call_id") or item.get("id"))
        elif kind == "tool_use":
            data = item.get("input")
            if not isinstance(data, dict):
                raise InputError(self.label, where, "input", "an object", found(data))
            self._action(data, item.get("id"))
        elif kind == "reasoning":
            text = _text_of(item.get("summary")) or _text_of(item.get("content"))
            if text.strip():
                self.pending_text.append(text.strip())
        elif kind in ("text", "output_text"):
            text = item.get("text")
            if isinstance(text, str) and text.strip():
                self.pending_text.append(text.strip())
        elif kind == "message":
            if item.get("role", "assistant") == "assistant":
                text = _text_of(item.get("content"))
                if text.strip():
                    self.pending_text.append(text.strip())
        elif kind == "tool_result":
            index = self.call_ids.get(str(item.get("tool_use_id")))
            if index is not None and item.get("is_error"):
                text = _text_of(item.get("content")) or "error"
                self.steps[index] = self.steps[index].model_copy(update={"error": text})
        elif kind in ("computer_call_output", "function_call_output", "image"):
            return
        elif "action" in item or kind in _OPENAI_ACTIONS:
            self._action(item, None)
        # any other item type (e.g. input_image) carries nothing for the metrics

    def _action(self, data: dict[str, Any], call_id: Any) -> None:
        name = action_name(data)
        if name in SKIPPED:
            self.skipped += 1
            return
        action = computer_action(data, raw=json.dumps(data, ensure_ascii=False, sort_keys=True))
        if action is None:
            self.skipped += 1
            return
        thought = "\n".join(self.pending_text) or None
        self.pending_text = []
        if call_id is not None:
            self.call_ids[str(call_id)] = len(self.steps)
        self.steps.append(AgentStep(action=action, thought=thought))

    def final_text(self) -> str | None:
        return "\n".join(self.pending_text) or None


def _trajectory(label: str, task_id: Any, items: list[tuple[str, Any]], extra: dict[str, Any], *, source: str | None = None) -> AgentTrajectory:
    builder = _Builder(label)
    for where, item in items:
        builder.add(item, where)
    final = extra.get("final_answer")
    final = final.strip() if isinstance(final, str) and final.strip() else builder.final_text()
    if final is not None and builder.steps and builder.steps[-1].action.kind == "answer" and builder.steps[-1].action.value is None:
        last = builder.steps[-1]
        builder.steps[-1] = last.model_copy(update={"action": last.action.model_copy(update={"value": final})})
    intent = next((extra[k].strip() for k in ("intent", "task", "instruction") if isinstance(extra.get(k), str) and extra[k].strip()), None)
    meta = {"skipped": builder.skipped} if builder.skipped else {}
    return AgentTrajectory(task_id=task_id, steps=builder.steps, intent=intent, final_answer=final, source=source or label, format=NAME, meta=meta)


def _list_key(row: dict[str, Any]) -> str | None:
    return next((k for k in LIST_KEYS if isinstance(row.get(k), list)), None)


def read_file(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every task of one JSON-lines file."""
    label = str(path)
    first = next((row for _, row, _ in iter_jsonl(path) if not isinstance(row, InputError)), None)
    if isinstance(first, dict) and _list_key(first) is not None:
        for lineno, row, _ in iter_jsonl(path):
            where = f"line {lineno}"
            if isinstance(row, InputError):
                yield ReadProblem(message=str(row), source=label)
                continue

            def build(row: Any = row, where: str = where) -> AgentTrajectory:
                task_id = get_field(row, "task_id", (str, int, float), file=label, where=where)
                key = _list_key(row)
                if key is None:
                    raise InputError(label, where, "items", "a list of computer-use items", "no item list")
                items = [(f"{where}: {key}[{i}]", item) for i, item in _flatten(row[key])]
                return _trajectory(label, task_id, items, row, source=f"{label}:{where}")

            tid = row.get("task_id") if isinstance(row, dict) else None
            yield guarded(build, source=f"{label}:{where}", task_id=None if tid is None else str(tid))
        return
    # one item per line, grouped by task_id
    for task_id, rows, error in group_jsonl(path, lambda r: str(r["task_id"]) if isinstance(r, dict) and r.get("task_id") is not None else None):
        if error is not None:
            yield ReadProblem(message=str(error), source=label)
            continue

        def build_rows(task_id: Any = task_id, rows: list[tuple[int, Any]] = rows) -> AgentTrajectory:
            items: list[tuple[str, Any]] = []
            extra: dict[str, Any] = {}
            for lineno, row in rows:
                for key in ("intent", "task", "instruction", "final_answer"):
                    if isinstance(row.get(key), str):
                        extra[key] = row[key]
                item = row.get("item")
                if item is None:  # the row is the item; its bookkeeping keys are not action arguments
                    item = {k: v for k, v in row.items() if k not in ("task_id", "intent", "task", "instruction", "final_answer")}
                items.extend((f"line {lineno}", it) for _, it in _flatten([item]))
            return _trajectory(label, task_id, items, extra)

        yield guarded(build_rows, source=label, task_id=task_id)


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every task in ``path`` (a .jsonl file, or a folder of them)."""
    paths = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    for p in paths:
        yield from read_file(p, ctx)
