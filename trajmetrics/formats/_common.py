"""Helpers shared by the agent-run readers: typed field access with exact error messages, JSON loading,
JSON-lines iteration, natural ordering, and turning a task's error into a ReadProblem."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..actions.tools import ToolMap
from ..errors import InputError, short
from ..model import AgentTrajectory, ReadProblem

_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "a boolean", list: "a list", dict: "an object"}


@dataclass
class ReadContext:
    """Options every reader may use."""

    plan_block: str = "last"
    tool_map: ToolMap = field(default_factory=ToolMap)


def type_name(types: type | tuple[type, ...]) -> str:
    """'a string or null'-style description of the accepted types."""
    if not isinstance(types, tuple):
        types = (types,)
    names = [_TYPE_NAMES.get(t, "null" if t is type(None) else t.__name__) for t in types]
    return " or ".join(names)


def found(value: Any) -> str:
    """How a found value is shown in a message: its JSON type and a short repr."""
    if value is None:
        return "null"
    kind = {str: "string", bool: "boolean", int: "integer", float: "number", list: "list", dict: "object"}.get(type(value), type(value).__name__)
    return f"{kind} {short(value, 60)}"


def get_field(
    record: Any,
    key: str,
    types: type | tuple[type, ...],
    *,
    file: str,
    where: str | int | None,
    path: str | None = None,
    required: bool = True,
    default: Any = None,
) -> Any:
    """``record[key]`` checked against ``types``; raises InputError naming file, record and field."""
    name = f"{path}.{key}" if path else key
    if not isinstance(record, dict):
        raise InputError(file, where, path or None, "an object", found(record))
    if key not in record:
        if required:
            raise InputError(file, where, name, f"{type_name(types)}", "nothing (field missing)")
        return default
    value = record[key]
    accepted = types if isinstance(types, tuple) else (types,)
    # bool is an int subclass; an int field must not accept true/false
    if isinstance(value, bool) and bool not in accepted:
        raise InputError(file, where, name, type_name(types), found(value))
    if float in accepted and isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, accepted):
        raise InputError(file, where, name, type_name(types), found(value))
    return value


def load_json(path: Path, *, label: str | None = None) -> Any:
    """Parse a JSON file; a truncated or invalid file raises InputError with line and column."""
    label = label or str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise InputError(label, None, None, "a readable file", f"{type(exc).__name__}: {exc.strerror or exc}") from None
    if not data.strip():
        raise InputError(label, None, None, "a JSON document", "an empty file")
    try:
        return json.loads(data)
    except UnicodeDecodeError as exc:
        raise InputError(label, None, None, "UTF-8 JSON", f"undecodable bytes at offset {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise InputError(label, f"line {exc.lineno} column {exc.colno}", None, "valid JSON", json_reason(exc, data)) from None


def json_reason(exc: json.JSONDecodeError, data: bytes | str) -> str:
    """What is wrong with a JSON text, saying "truncated" when it stops before its closing bracket."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    stripped = text.rstrip()
    opened = stripped[:1] in ("{", "[")
    closed = stripped[-1:] == {"{": "}", "[": "]"}.get(stripped[:1], "")
    if opened and (not closed or exc.pos >= len(stripped) - 1):
        return f"truncated JSON ({exc.msg})"
    return exc.msg


def iter_jsonl(path: Path) -> Iterator[tuple[int, Any, int]]:
    """(line number, parsed value or InputError, byte offset) for each non-blank line; never loads the whole file."""
    label = str(path)
    with open(path, "rb") as fh:
        lineno = 0
        while True:
            offset = fh.tell()
            line = fh.readline()
            if not line:
                break
            lineno += 1
            if not line.strip():
                continue
            try:
                yield lineno, json.loads(line), offset
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                msg = json_reason(exc, line) if isinstance(exc, json.JSONDecodeError) else "undecodable bytes"
                yield lineno, InputError(label, f"line {lineno}", None, "one JSON value per line", msg), offset


_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> list[Any]:
    """Sort key that orders ``task_2`` before ``task_10``."""
    return [int(p) if p.isdigit() else p.lower() for p in _DIGITS.split(text)]


def validation_problem(exc: ValidationError, *, file: str, where: str | int | None) -> InputError:
    """The first pydantic error as an InputError: ``file:where: steps[0].action.kind: expected ..., found ...``."""
    err = exc.errors(include_url=False)[0]
    parts: list[str] = []
    for loc in err.get("loc", ()):
        if isinstance(loc, int):
            parts.append(f"[{loc}]")
        else:
            parts.append(("." if parts else "") + str(loc))
    field_path = "".join(parts) or None
    msg = err.get("msg", "a valid value")
    expected = msg[0].lower() + msg[1:] if msg else "a valid value"
    for prefix in ("input should be ", "value error, "):
        if expected.startswith(prefix):
            expected = expected[len(prefix) :]
    if err.get("type") == "missing":
        return InputError(file, where, field_path, "a value", "nothing (field missing)")
    if err.get("type") == "extra_forbidden":
        return InputError(file, where, field_path, "no such field (unknown field)", found(err.get("input")))
    return InputError(file, where, field_path, expected, found(err.get("input")))


def guarded(
    build: Callable[[], AgentTrajectory],
    *,
    source: str,
    task_id: str | None,
) -> AgentTrajectory | ReadProblem:
    """Run one task's reader; a data error becomes a ReadProblem so the other tasks go on.

    Only errors caused by the data are caught (InputError, pydantic validation, file errors); a bug in a
    reader still raises, because hiding it would silently drop tasks.
    """
    try:
        return build()
    except InputError as exc:
        return ReadProblem(message=str(exc), source=source, task_id=exc.task_id or task_id)
    except ValidationError as exc:
        return ReadProblem(message=str(validation_problem(exc, file=source, where=None)), source=source, task_id=task_id)
    except (OSError, UnicodeDecodeError) as exc:
        return ReadProblem(message=f"{source}: expected a readable file, found {type(exc).__name__}: {exc}", source=source, task_id=task_id)


def read_each(
    path: Path,
    paths: list[Path],
    expected: str,
    read_one: Callable[[Path], AgentTrajectory],
    task_id_of: Callable[[Path], str],
) -> Iterator[AgentTrajectory | ReadProblem]:
    """One task per file: read each, guarded; a folder with none of them is one ReadProblem.

    ``expected`` completes "expected ..., found none" (e.g. ``"web_surfer.log files"``).
    """
    if not paths:
        yield ReadProblem(message=f"{path}: expected {expected}, found none", source=str(path))
        return
    for p in paths:
        yield guarded(lambda p=p: read_one(p), source=str(p), task_id=task_id_of(p))


def task_id_from_name(name: str) -> str:
    """A task id from a folder or file name: ``task_10`` -> ``10``, ``render_7.html`` -> ``7``, AgentLab
    ``..._on_webarena.310_0`` -> ``310``; otherwise the name itself."""
    stem = name
    for suffix in (".html", ".json", ".jsonl", ".log"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    m = re.match(r"^(?:task|render|result|traj)[_-](.+)$", stem, re.IGNORECASE)
    if m:
        return m.group(1)
    m = re.search(r"_on_(?:[A-Za-z_]+\.)?([^._]+)_\d+$", stem)
    if m:
        return m.group(1)
    return stem


def group_jsonl(path: Path, key: Callable[[Any], str | None]) -> Iterator[tuple[str | None, list[tuple[int, Any]], InputError | None]]:
    """Rows of a JSON-lines file grouped by ``key(row)``, groups in order of first appearance.

    A first pass keeps only each row's byte offset, a second pass reads one group at a time, so a group's
    rows may be spread over the file while memory holds one group. Yields (key, [(line, row)], None), or
    (None, [], error) for a line that is not JSON or has no key.
    """
    offsets: dict[str, list[tuple[int, int]]] = {}
    for lineno, row, offset in iter_jsonl(path):
        if isinstance(row, InputError):
            yield None, [], row
            continue
        k = key(row)
        if k is None:
            yield None, [], InputError(str(path), f"line {lineno}", None, "a row with a task or session id", found(row))
            continue
        offsets.setdefault(k, []).append((lineno, offset))
    with open(path, "rb") as fh:
        for k, places in offsets.items():
            rows = []
            for lineno, offset in places:
                fh.seek(offset)
                rows.append((lineno, json.loads(fh.readline())))
            yield k, rows, None
