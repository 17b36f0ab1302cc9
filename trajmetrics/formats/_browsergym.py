"""BrowserGym / AgentLab runs: ``task_<id>/steps_info_<n>.json`` + ``summary_info.json``.

Record n holds the observation before action n and the model text that chose action n. Record n+1's
``obs.last_action`` is the environment's record of the action it executed, and ``obs.last_action_error``
its error. ``summary_info.n_steps`` actions were executed: the last record's action may have been generated
but was never run, so it is kept only as ``meta["unexecuted_action"]``.

Element accuracy (planned vs executed):

- planned = the call in the ``<action>`` block of record n's ``action`` text (the whole text when the agent
  writes bare code, as AgentLab's GenericAgent does), element resolved in record n's ``axtree_txt``;
- executed = the call in record n+1's ``obs.last_action`` (what the environment received), element resolved
  in the same tree (the one the action was chosen and run on). When record n+1 is missing the plan stands in
  and ``meta["executed_from_plan"]`` lists the step.

On the 40-task sample the two strings are identical for all 315 executed actions (the environment receives the
block verbatim), so element accuracy is 1.0 there by construction except where no plan can be parsed. The
reader still compares them rather than assuming it, and lists differing steps in ``meta["plan_differs"]``.

Each ``steps_info`` file is parsed whole (``pruned_html`` dominates it) but only the few needed fields are
kept, one record at a time, so memory does not grow with the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..actions.browsergym import action_block, parse_action, strip_fence, think_block
from ..errors import InputError
from ..model import Action, AgentStep, AgentTrajectory, ReadProblem
from ._common import ReadContext, get_field, guarded, load_json, natural_key, task_id_from_name

NAME = "browsergym"
_STEP_GLOB = "steps_info_*.json"


def is_task_dir(path: Path) -> bool:
    """A folder holding one BrowserGym task's records."""
    return path.is_dir() and ((path / "summary_info.json").is_file() or any(path.glob(_STEP_GLOB)))


def task_dirs(path: Path) -> list[Path]:
    """The task folders of a run folder (or the folder itself when it is one task)."""
    if is_task_dir(path):
        return [path]
    subdirs = sorted((p for p in path.iterdir() if p.is_dir()), key=lambda p: natural_key(p.name))
    found = [p for p in subdirs if is_task_dir(p) or p.name.lower().startswith("task_")]
    if found:
        return found
    # a run root with the tasks one level down (e.g. results/task_<id>/)
    deeper: list[Path] = []
    for sub in subdirs:
        deeper.extend(p for p in sorted(sub.iterdir(), key=lambda p: natural_key(p.name)) if p.is_dir() and is_task_dir(p))
    return deeper


def looks_like(path: Path) -> bool:
    """Detection: a task folder, a folder of them, or a run root one level above them."""
    if path.is_file():
        return path.name == "summary_info.json" or (path.name.startswith("steps_info_") and path.suffix == ".json")
    return bool(task_dirs(path)) if path.is_dir() else False


def _url(obs: dict[str, Any]) -> str | None:
    urls = obs.get("open_pages_urls")
    if not isinstance(urls, list) or not urls:
        url = obs.get("url")
        return url if isinstance(url, str) and url else None
    index = obs.get("active_page_index", 0)
    if isinstance(index, list):
        index = index[0] if index else 0
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(urls):
        index = 0
    url = urls[index]
    return url if isinstance(url, str) and url else None


class _Pending:
    """What is kept of record n until record n+1 says what was executed."""

    __slots__ = ("index", "plan_raw", "planned", "thought", "url", "axtree", "plan_source")

    def __init__(self, index: int, plan_raw: str | None, planned: Action | None, thought: str | None, url: str | None, axtree: str, plan_source: str | None) -> None:
        self.index = index
        self.plan_raw = plan_raw
        self.planned = planned
        self.thought = thought
        self.url = url
        self.axtree = axtree
        self.plan_source = plan_source


def _read_record(path: Path, index: int) -> tuple[dict[str, Any], dict[str, Any], str]:
    label = str(path)
    record = load_json(path, label=label)
    where = f"record {index}"
    obs = get_field(record, "obs", dict, file=label, where=where)
    return record, obs, label


def _pending(record: dict[str, Any], obs: dict[str, Any], label: str, index: int) -> _Pending:
    where = f"record {index}"
    text = get_field(record, "action", str, file=label, where=where)
    axtree = get_field(obs, "axtree_txt", (str, type(None)), file=label, where=where, path="obs", required=False, default="") or ""
    block = action_block(text)
    plan_source = "action_tag"
    if block is None and "<think>" not in text.lower():
        block, plan_source = text.strip() or None, "action_field"  # AgentLab agents store bare code
    planned = parse_action(block, axtree=axtree) if block else None
    thought = think_block(text)
    if thought is None:
        info = record.get("agent_info")
        think = info.get("think") if isinstance(info, dict) else None
        thought = think.strip() if isinstance(think, str) and think.strip() else None
    return _Pending(index, strip_fence(block) if block else None, planned, thought, _url(obs), axtree, plan_source if block else None)


def _finish(p: _Pending, executed_raw: str | None, error: str | None, meta: dict[str, Any]) -> AgentStep:
    if not executed_raw:
        # no environment record of this step: the plan is the best account of what ran
        meta.setdefault("executed_from_plan", []).append(p.index)
        executed_raw = p.plan_raw
    executed = parse_action(executed_raw, axtree=p.axtree) if executed_raw else None
    if executed is None:
        executed = Action(kind="other", raw=executed_raw or "")
    if p.plan_raw is not None and strip_fence(executed_raw or "") != p.plan_raw:
        meta.setdefault("plan_differs", []).append(p.index)
    return AgentStep(
        action=executed,
        thought=p.thought,
        planned=p.planned,
        planned_raw=p.plan_raw,
        url=p.url,
        error=error or None,
        plan_source=p.plan_source,
    )


def read_task(task_dir: Path, ctx: ReadContext | None = None) -> AgentTrajectory:
    """Read one task folder; raises InputError on bad data."""
    label = str(task_dir)
    if not task_dir.is_dir():
        raise InputError(label, None, None, "a task folder", "no such folder")
    summary_path = task_dir / "summary_info.json"
    if not summary_path.is_file():
        has_steps = any(task_dir.glob(_STEP_GLOB))
        raise InputError(
            str(summary_path), None, None, "summary_info.json with n_steps",
            "no such file (steps only; run unfinished?)" if has_steps else "an empty task folder",
        )
    summary = load_json(summary_path)
    n_steps = get_field(summary, "n_steps", int, file=str(summary_path), where=None)
    if n_steps < 0:
        raise InputError(str(summary_path), None, "n_steps", "a count >= 0", str(n_steps))
    err_msg = get_field(summary, "err_msg", (str, type(None)), file=str(summary_path), where=None, required=False)
    meta: dict[str, Any] = {"n_steps": n_steps}
    for key, name in (("cum_reward", "reward"), ("terminated", "terminated"), ("truncated", "truncated")):
        if isinstance(summary.get(key), (int, float, bool)):
            meta[name] = summary[key]

    steps: list[AgentStep] = []
    intent: str | None = None
    pending: _Pending | None = None
    for i in range(n_steps + 1):
        path = task_dir / f"steps_info_{i}.json"
        if not path.is_file():
            if i < n_steps:
                pickled = (task_dir / f"step_{i}.pkl.gz").is_file()
                raise InputError(
                    str(path), None, None, f"steps_info_0..{n_steps}.json (summary_info.n_steps = {n_steps})",
                    "only AgentLab's pickled step_<n>.pkl.gz (not read: export them to JSON)" if pickled else "no such file",
                )
            break
        record, obs, rec_label = _read_record(path, i)
        if i == 0:
            goal = obs.get("goal")
            intent = goal.strip() if isinstance(goal, str) and goal.strip() else None
        if pending is not None:
            where = f"record {i}"
            last = get_field(obs, "last_action", (str, type(None)), file=rec_label, where=where, path="obs", required=False)
            err = get_field(obs, "last_action_error", (str, type(None)), file=rec_label, where=where, path="obs", required=False)
            steps.append(_finish(pending, last, err, meta))
            pending = None
        if i < n_steps:
            pending = _pending(record, obs, rec_label, i)
        else:
            text = record.get("action")
            if isinstance(text, str) and text.strip():
                block = action_block(text)
                meta["unexecuted_action"] = strip_fence(block) if block is not None else text.strip()
        del record, obs  # the observation is the bulk of the file; do not carry it to the next record
    if pending is not None:
        steps.append(_finish(pending, None, None, meta))

    final_answer = None
    for step in steps:
        if step.action.kind == "answer":
            final_answer = step.action.value
    return AgentTrajectory(
        task_id=task_id_from_name(task_dir.name),
        steps=steps,
        intent=intent,
        final_answer=final_answer,
        aborted=err_msg is not None,
        abort_reason=err_msg.strip() if isinstance(err_msg, str) else None,
        source=label,
        format=NAME,
        meta=meta,
    )


def read(path: Path, ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    """Every task under ``path``, one at a time."""
    if path.is_file():
        path = path.parent
    dirs = task_dirs(path)
    if not dirs:
        yield ReadProblem(
            message=f"{path}: expected task folders with steps_info_<n>.json and summary_info.json, found {'an empty folder' if not any(path.iterdir()) else 'none'}",
            source=str(path),
        )
        return
    for d in dirs:
        yield guarded(lambda d=d: read_task(d, ctx), source=str(d), task_id=task_id_from_name(d.name))
