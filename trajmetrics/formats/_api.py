"""Format registry, detection, and the public entry points."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Literal, get_args

from ..actions.tools import ToolMap
from ..config import PlanBlock
from ..errors import ConfigError, InputError
from ..model import AgentTrajectory, ReadProblem
from . import _browsergym, _canonical, _computer_use, _fara, _mind2web, _reference_sheet, _tool_calls, _webarena_render
from ._common import ReadContext, iter_jsonl

AgentFormat = Literal[
    "browsergym",
    "webarena_render",
    "reference_sheet",
    "mind2web",
    "fara",
    "computer_use",
    "tool_calls",
    "canonical",
]
#: Every agent-run format, in the order detection tries them.
AGENT_FORMATS: tuple[str, ...] = get_args(AgentFormat)

_READERS: dict[str, Callable[[Path, ReadContext], Iterator[AgentTrajectory | ReadProblem]]] = {
    "browsergym": _browsergym.read,
    "webarena_render": _webarena_render.read,
    "reference_sheet": _reference_sheet.read,
    "mind2web": _mind2web.read,
    "fara": _fara.read,
    "computer_use": _computer_use.read,
    "tool_calls": _tool_calls.read,
    "canonical": _canonical.read,
}
_SNIFF_ROWS = 20
_SNIFF_WHOLE_JSON = 32 << 20  # a .json bigger than this is recognised from its first bytes only


def _unknown(path: Path, found: str) -> InputError:
    return InputError(
        str(path),
        None,
        None,
        f"an agent run in one of the formats {', '.join(AGENT_FORMATS)} (--agent-format forces one)",
        found,
    )


def _format_of_record(value: Any) -> str | None:
    if _canonical.looks_like_record(value):
        return "canonical"
    if _tool_calls.looks_like_record(value):
        return "tool_calls"
    if _computer_use.looks_like_record(value):
        return "computer_use"
    if _mind2web.looks_like_record(value):
        return "mind2web"
    if isinstance(value, dict) and isinstance(value.get("obs"), dict) and "action" in value:
        return "browsergym"
    return None


def _sniff_head(head: bytes) -> str | None:
    # for a .json too big to parse twice: the first bytes' markers
    if b'"action_history"' in head:
        return "mind2web"
    if b'"computer_call"' in head:
        return "computer_use"
    if b'"tool_calls"' in head or b'"session_id"' in head:
        return "tool_calls"
    if b'"steps"' in head and b'"kind"' in head:
        return "canonical"
    return None


def _detect_file(path: Path) -> str | None:
    name, suffix = path.name, path.suffix.lower()
    if name == _fara.LOG:
        return "fara"
    if name == "summary_info.json" or (name.startswith("steps_info_") and suffix == ".json"):
        return "browsergym"
    if suffix in (".html", ".htm"):
        return "webarena_render" if _webarena_render.looks_like(path) else None
    if suffix in (".xlsx", ".xlsm", ".csv"):
        return "reference_sheet" if _reference_sheet.looks_like(path) else None
    if suffix == ".jsonl":
        # rows of one item each may start with items that say nothing (a text block): look a little further
        for n, (_, row, _) in enumerate(iter_jsonl(path)):
            fmt = None if isinstance(row, InputError) else _format_of_record(row)
            if fmt is not None or n >= _SNIFF_ROWS:
                return fmt
        return None
    if suffix == ".json":
        if path.stat().st_size > _SNIFF_WHOLE_JSON:
            with open(path, "rb") as fh:
                return _sniff_head(fh.read(1 << 16))
        try:
            value = json.loads(path.read_bytes())
        except (ValueError, UnicodeDecodeError):
            with open(path, "rb") as fh:  # broken JSON: still say which format it was meant to be
                return _sniff_head(fh.read(1 << 16))
        return _format_of_record(value)
    return None


def detect_format(path: str | Path) -> str:
    """The agent format of a file or folder; raises InputError listing the known formats when unknown.

    Folders: task folders with ``steps_info_<n>.json`` (browsergym), ``render_<id>.html`` (webarena_render),
    ``web_surfer.log`` (fara), ``result.json`` (mind2web), else the first recognised file inside.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(str(p), None, None, "an agent run file or folder", "no such file or folder")
    if p.is_file():
        fmt = _detect_file(p)
        if fmt is None:
            if p.suffix.lower() in (".xlsx", ".xlsm", ".csv"):
                raise _unknown(p, "a spreadsheet without the columns Task No, Text, Next Step")
            raise _unknown(p, f"a {p.suffix or 'suffix-less'} file with no known markers")
        return fmt
    entries = list(p.iterdir())
    if not entries:
        raise _unknown(p, "an empty folder")
    if _browsergym.looks_like(p):
        return "browsergym"
    if _webarena_render.looks_like(p):
        return "webarena_render"
    if _fara.looks_like(p):
        return "fara"
    m2w = _mind2web.files(p)
    if m2w and _mind2web.looks_like(m2w[0]):
        return "mind2web"
    for f in sorted(e for e in entries if e.is_file()):
        fmt = _detect_file(f)
        if fmt is not None and fmt not in ("browsergym", "fara"):
            return fmt
    raise _unknown(p, f"a folder of {len(entries)} entries, none in a known format")


def _check_option(value: Any, valid: tuple[str, ...], option: str) -> None:
    if value not in valid:
        raise ConfigError(f"{option}: expected one of {', '.join(valid)}, found {value!r}")


def read_agent_runs(
    paths: Sequence[str | Path] | str | Path,
    agent_format: str | None = None,
    *,
    tool_map: dict | str | Path | None = None,
    plan_block: Literal["last", "first"] = "last",
) -> Iterator[AgentTrajectory | ReadProblem]:
    """Stream the tasks of agent runs, one at a time: an AgentTrajectory per task, a ReadProblem per bad task.

    Formats are detected per path unless ``agent_format`` forces one. Options and formats are checked
    before the first task is read, so an unknown format raises InputError (an unknown option ConfigError)
    at the call, not in the middle of the stream.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if agent_format is not None:
        _check_option(agent_format, AGENT_FORMATS, "--agent-format")
    _check_option(plan_block, get_args(PlanBlock), "--plan-block")
    ctx = ReadContext(plan_block=plan_block, tool_map=ToolMap.load(tool_map))
    plan: list[tuple[Path, str]] = []
    for raw in paths:
        p = Path(raw)
        if agent_format is not None and not p.exists():
            raise InputError(str(p), None, None, "an agent run file or folder", "no such file or folder")
        plan.append((p, agent_format or detect_format(p)))
    return _stream(plan, ctx)


def _stream(plan: list[tuple[Path, str]], ctx: ReadContext) -> Iterator[AgentTrajectory | ReadProblem]:
    for path, fmt in plan:
        yield from _READERS[fmt](path, ctx)


def write_agent_jsonl(trajs: Iterable[AgentTrajectory | ReadProblem], path_or_file: str | Path | IO[str]) -> int:
    """Write trajectories as canonical JSON lines (``-`` = stdout); ReadProblems are skipped.

    A path is written through a temporary file renamed at the end, so an interrupted run leaves no half file.
    Returns the number of trajectories written.
    """
    if not isinstance(path_or_file, (str, Path)):
        return _canonical.write(trajs, path_or_file)
    if str(path_or_file) == "-":
        return _canonical.write(trajs, sys.stdout)
    target = Path(path_or_file)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            n = _canonical.write(trajs, fh)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return n
