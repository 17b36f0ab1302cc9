"""Errors for bad input: each names the file, the record, the field, what was expected and what was found."""

from __future__ import annotations

from typing import Any


class TrajmetricsError(Exception):
    """Base class for errors a user can fix (the CLI prints them on one line, no traceback)."""


class InputError(TrajmetricsError):
    """Bad input data.

    >>> str(InputError("run.jsonl", "line 3", "steps[0].action.kind", "one of click, type", "'klick'"))
    "run.jsonl:line 3: steps[0].action.kind: expected one of click, type, found 'klick'"
    """

    def __init__(
        self,
        file: str | None,
        record: str | int | None,
        field: str | None,
        expected: str,
        found: Any = None,
        *,
        task_id: str | None = None,
    ) -> None:
        self.file = file
        self.record = record
        self.field = field
        self.expected = expected
        self.found = found
        self.task_id = task_id
        super().__init__(self._message())

    def _message(self) -> str:
        where = ":".join(str(p) for p in (self.file, self.record) if p not in (None, ""))
        parts = [p for p in (where, self.field) if p]
        head = ": ".join(parts)
        tail = f"expected {self.expected}"
        if self.found is not None:
            found = self.found if isinstance(self.found, str) else repr(self.found)
            if len(found) > 120:
                found = found[:117] + "..."
            tail += f", found {found}"
        return f"{head}: {tail}" if head else tail


class ConfigError(TrajmetricsError):
    """A bad option or configuration value."""


def short(value: Any, limit: int = 80) -> str:
    """repr() of a value, cut to ``limit`` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
