"""Tool-calling agents: OpenAI-style chat messages with ``tool_calls``, and the web-trajectories SFT layout.

Chat messages (one trajectory per message list):

- a ``.json`` file holding a message list (task id = file name), an object ``{"task_id", "messages"}``, or a
  list of such objects (a .json file is parsed whole; use JSON lines for big runs);
- a ``.jsonl`` file with one ``{"task_id", "messages": [...]}`` per line, or one message per line with
  ``task_id`` (grouped by task id).

The assistant's text is the thought of its next tool call; each tool call is one step; a ``tool`` message
whose content starts with ``Error`` (or is JSON with an ``error`` key) is that call's error. The final
answer is the last ``answer``-kind tool call's value, else the assistant's text after the last call.

SFT rows (one row per LLM call): ``session_id``, ``turn_index``, ``task_id``, ``role`` (``act``, ``plan``,
...) and ``response`` = a JSON list of output blocks (``{"type": "text", "text"}`` or ``{"type":
"tool_call", "name", "input"}``). A session's ``act`` rows in ``turn_index`` order are the trajectory;
other roles are counted in ``meta["other_roles"]``. Rows are grouped by session without loading the file.

Tool names map to kinds by :mod:`trajmetrics.actions.tools` (``--tool-map`` extends it). The tool call is
both what the model proposed and what ran, so there is no separate plan (element accuracy not applicable).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..actions.tools import tool_action
from ..errors import InputError
from ..model import AgentStep, AgentTrajectory, ReadProblem
from ._common import ReadContext, found, get_field, group_jsonl, guarded, iter_jsonl, load_json

NAME = "tool_calls"
SFT_KEYS = ("session_id", "turn_index", "response")


def is_sft_row(row: Any) -> bool:
    """A web-trajectories SFT row."""
    return isinstance(row, dict) and all(k in row for k in SFT_KEYS)


def is_message(row: Any) -> bool:
    """An OpenAI-style chat message."""
    return isinstance(row, dict) and isinstance(row.get("role"), str) and ("content" in row or "tool_calls" in row)


def looks_like_record(row: Any) -> bool:
    """A parsed JSON value (a line, or a whole .json document) in this format."""
    if is_sft_row(row):
        return True
    if isinstance(row, dict) and isinstance(row.get("messages"), list):
        return any(isinstance(m, dict) and (m.get("tool_calls") or m.get("function_call")) for m in row["messages"])
    if isinstance(row, list):
        return any(looks_like_record(r) for r in row[:20]) or any(isinstance(m, dict) and m.get("tool_calls") for m in row)
    return is_message(row) and bool(row.get("tool_calls"))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _arguments(raw: Any, *, label: str, where: str, bad: list[str]) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            bad.append(where)  # models emit broken JSON; keep the call with its raw text
            return {"arguments": raw}
        return value if isinstance(value, dict) else {"input": value}
    raise InputError(label, where, "arguments", "a JSON object or a JSON string", found(raw))


def _is_error(content: Any) -> str | None:
    text = _text(content).strip()
    if not text:
        return None
    if text.lower().startswith(("error", "exception", "traceback")):
        return text
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return None
        if isinstance(data, dict) and data.get("error"):
            return str(data["error"])
    return None


def _finish(label: str, task_id: Any, steps: list[AgentStep], tail_text: str | None, meta: dict[str, Any], intent: Any = None) -> AgentTrajectory:
    final = None
    for step in steps:
        if step.action.kind == "answer" and step.action.value:
            final = step.action.value
    if final is None and tail_text:
        final = tail_text
    return AgentTrajectory(
        task_id=task_id,
        steps=steps,
        intent=intent.strip() if isinstance(intent, str) and intent.strip() else None,
        final_answer=final,
        source=label,
        format=NAME,
        meta=meta,
    )


def from_messages(messages: list[Any], *, task_id: Any, label: str, where: str, ctx: ReadContext, intent: Any = None) -> AgentTrajectory:
    """One trajectory from an OpenAI-style message list."""
    steps: list[AgentStep] = []
    by_call: dict[str, int] = {}
    pending: list[str] = []
    bad: list[str] = []
    skipped = 0
    for i, msg in enumerate(messages):
        here = f"{where}messages[{i}]"
        if not isinstance(msg, dict):
            raise InputError(label, here, None, "a message object", found(msg))
        role = get_field(msg, "role", str, file=label, where=here)
        if role == "assistant":
            text = _text(msg.get("content")).strip()
            if text:
                pending.append(text)
            calls = msg.get("tool_calls") or []
            if msg.get("function_call"):
                calls = [*calls, {"function": msg["function_call"]}]
            if not isinstance(calls, list):
                raise InputError(label, here, "tool_calls", "a list", found(calls))
            for j, call in enumerate(calls):
                cwhere = f"{here}.tool_calls[{j}]"
                fn = get_field(call, "function", dict, file=label, where=cwhere)
                name = get_field(fn, "name", str, file=label, where=cwhere, path="function")
                args = _arguments(fn.get("arguments"), label=label, where=cwhere, bad=bad)
                raw = json.dumps({"name": name, "arguments": args}, ensure_ascii=False)
                action = tool_action(name, args, ctx.tool_map, raw=raw)
                if action is None:
                    skipped += 1
                    continue
                if call.get("id") is not None:
                    by_call[str(call["id"])] = len(steps)
                steps.append(AgentStep(action=action, thought="\n".join(pending) or None))
                pending = []
        elif role in ("tool", "function"):
            index = by_call.get(str(msg.get("tool_call_id")))
            error = _is_error(msg.get("content"))
            if index is not None and error:
                steps[index] = steps[index].model_copy(update={"error": error})
    meta: dict[str, Any] = {}
    if skipped:
        meta["skipped"] = skipped
    if bad:
        meta["unparsed_arguments"] = bad
    return _finish(label, task_id, steps, "\n".join(pending) or None, meta, intent)


def _blocks(response: Any, *, label: str, where: str) -> list[Any]:
    if isinstance(response, str):
        try:
            response = json.loads(response)
        except json.JSONDecodeError:
            return [{"type": "text", "text": response}]
    if isinstance(response, dict):
        response = [response]
    if not isinstance(response, list):
        raise InputError(label, where, "response", "a JSON list of output blocks", found(response))
    return response


def from_sft_rows(rows: list[tuple[int, Any]], *, session: str, label: str, ctx: ReadContext) -> AgentTrajectory:
    """One trajectory from a session's SFT rows (``act`` rows in ``turn_index`` order)."""
    acts: list[tuple[float, int, dict[str, Any]]] = []
    other_roles: dict[str, int] = {}
    task_id: Any = None
    for lineno, row in rows:
        where = f"line {lineno}"
        if not isinstance(row, dict):
            raise InputError(label, where, None, "a row object", found(row))
        role = get_field(row, "role", str, file=label, where=where)
        turn = get_field(row, "turn_index", (int, float), file=label, where=where)
        if task_id is None and row.get("task_id") is not None:
            task_id = row["task_id"]
        if role == "act":
            acts.append((turn, lineno, row))
        else:
            other_roles[role] = other_roles.get(role, 0) + 1
    acts.sort(key=lambda t: (t[0], t[1]))
    steps: list[AgentStep] = []
    pending: list[str] = []
    bad: list[str] = []
    skipped = 0
    for _, lineno, row in acts:
        where = f"line {lineno}"
        if "response" not in row:
            raise InputError(label, where, "response", "a JSON list of output blocks", "nothing (field missing)")
        for k, block in enumerate(_blocks(row["response"], label=label, where=where)):
            bwhere = f"{where}: response[{k}]"
            if not isinstance(block, dict):
                raise InputError(label, bwhere, None, "an output block object", found(block))
            btype = block.get("type")
            if btype in ("text", "output_text", "thinking", "reasoning"):
                text = block.get("text") or block.get("thinking")
                if isinstance(text, str) and text.strip():
                    pending.append(text.strip())
            elif btype in ("tool_call", "tool_use", "function_call"):
                name = get_field(block, "name", str, file=label, where=bwhere)
                args = _arguments(block.get("input", block.get("arguments")), label=label, where=bwhere, bad=bad)
                raw = json.dumps({"name": name, "input": args}, ensure_ascii=False)
                action = tool_action(name, args, ctx.tool_map, raw=raw)
                if action is None:
                    skipped += 1
                    continue
                steps.append(AgentStep(action=action, thought="\n".join(pending) or None))
                pending = []
    meta: dict[str, Any] = {"session_id": session}
    if other_roles:
        meta["other_roles"] = other_roles
    if skipped:
        meta["skipped"] = skipped
    if bad:
        meta["unparsed_arguments"] = bad
    if task_id is None:
        task_id = session
    return _finish(f"{label} (session {session})", task_id, steps, "\n".join(pending) or None, meta)


def _read_json(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    label = str(path)
    try:
        data = load_json(path)
    except InputError as exc:
        yield ReadProblem(message=str(exc), source=label)
        return
    if isinstance(data, list) and data and all(is_message(m) for m in data):
        yield guarded(lambda: from_messages(data, task_id=path.stem, label=label, where="", ctx=ctx), source=label, task_id=path.stem)
        return
    records = data if isinstance(data, list) else [data]
    for i, rec in enumerate(records):
        where = f"[{i}]" if isinstance(data, list) else ""

        def build(rec: Any = rec, where: str = where) -> AgentTrajectory:
            messages = get_field(rec, "messages", list, file=label, where=where or None)
            task_id = get_field(rec, "task_id", (str, int, float), file=label, where=where or None, required=False)
            return from_messages(messages, task_id=task_id if task_id is not None else path.stem, label=label, where=f"{where}." if where else "", ctx=ctx, intent=rec.get("intent"))

        tid = rec.get("task_id") if isinstance(rec, dict) else None
        yield guarded(build, source=label, task_id=None if tid is None else str(tid))


def _read_jsonl(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    label = str(path)
    first = next((row for _, row, _ in iter_jsonl(path) if not isinstance(row, InputError)), None)
    if is_sft_row(first):
        for session, rows, error in group_jsonl(path, lambda r: str(r["session_id"]) if isinstance(r, dict) and r.get("session_id") is not None else None):
            if error is not None:
                yield ReadProblem(message=str(error), source=label)
                continue
            task_hint = next((str(r["task_id"]) for _, r in rows if isinstance(r, dict) and r.get("task_id") is not None), None)
            yield guarded(lambda s=session, r=rows: from_sft_rows(r, session=s, label=label, ctx=ctx), source=label, task_id=task_hint)
        return
    if is_message(first):
        # one message per line, grouped by task id
        for task_id, rows, error in group_jsonl(path, lambda r: str(r["task_id"]) if isinstance(r, dict) and r.get("task_id") is not None else None):
            if error is not None:
                yield ReadProblem(message=str(error), source=label)
                continue
            messages = [row for _, row in rows]
            yield guarded(lambda t=task_id, m=messages, n=rows[0][0]: from_messages(m, task_id=t, label=label, where=f"line {n}+: ", ctx=ctx), source=label, task_id=task_id)
        return
    for lineno, row, _ in iter_jsonl(path):
        where = f"line {lineno}"
        if isinstance(row, InputError):
            yield ReadProblem(message=str(row), source=label)
            continue

        def build(row: Any = row, where: str = where) -> AgentTrajectory:
            messages = get_field(row, "messages", list, file=label, where=where)
            task_id = get_field(row, "task_id", (str, int, float), file=label, where=where)
            return from_messages(messages, task_id=task_id, label=label, where=f"{where}: ", ctx=ctx, intent=row.get("intent"))

        tid = row.get("task_id") if isinstance(row, dict) else None
        yield guarded(build, source=f"{label}:{where}", task_id=None if tid is None else str(tid))


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every trajectory in ``path`` (a .json/.jsonl file or a folder of them)."""
    paths = sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl")) if path.is_dir() else [path]
    for p in paths:
        yield from (_read_jsonl(p, ctx) if p.suffix == ".jsonl" else _read_json(p, ctx))
