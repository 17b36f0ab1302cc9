"""On-disk cache of judge answers (diskcache, JSON values, sha256 keys).

The key is the sha256 of canonical JSON of exactly what changes the model's output: judge task, model,
base URL, prompt-template version (and a hash of its text), sampling settings, the normalised inputs and
the sample index. Transport settings (timeout, retries, concurrency) are not part of it. Values are JSON
strings, never pickles, so a cache can be inspected and shared safely. Only valid verdicts are stored:
errors, refusals and unparseable replies never are. A failed or corrupt read is a miss, never a crash.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

from ..errors import ConfigError

#: Environment variable naming the cache folder (the CLI's ``--cache-dir`` reads it too).
CACHE_ENV = "TRAJMETRICS_CACHE_DIR"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
_VERDICTS = ("MATCH", "NO_MATCH")


def default_cache_dir() -> Path:
    """``$TRAJMETRICS_CACHE_DIR``, else the platform's user cache folder + ``trajmetrics``.

    Linux and others: ``$XDG_CACHE_HOME/trajmetrics`` or ``~/.cache/trajmetrics``; macOS:
    ``~/Library/Caches/trajmetrics``; Windows: ``%LOCALAPPDATA%\\trajmetrics\\Cache``.
    """
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(root) / "trajmetrics" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "trajmetrics"
    xdg = os.environ.get("XDG_CACHE_HOME")
    # XDG says relative values are invalid and must be ignored
    root = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return root / "trajmetrics"


def normalise_base_url(base_url: str | None) -> str:
    """The endpoint as it enters the cache key: default filled in, trailing slash dropped."""
    return (base_url or DEFAULT_BASE_URL).strip().rstrip("/")


def cache_key(
    *,
    task: str,
    model: str,
    base_url: str | None,
    prompt_version: str,
    inputs: dict[str, Any],
    sample: int = 0,
    prompt_sha: str | None = None,
    sampling: dict[str, Any] | None = None,
) -> str:
    """sha256 hex of canonical JSON of everything that changes a judge answer.

    >>> k = cache_key(task="step", model="m", base_url=None, prompt_version="step_v1", inputs={"left": "a"})
    >>> k == cache_key(task="step", model="m", base_url="https://api.openai.com/v1/", prompt_version="step_v1",
    ...                inputs={"left": "a"})
    True
    >>> k == cache_key(task="step", model="m", base_url=None, prompt_version="step_v1", inputs={"left": "a"}, sample=1)
    False
    """
    parts = {
        "task": task,
        "model": model,
        "base_url": normalise_base_url(base_url),
        "prompt_version": prompt_version,
        "prompt_sha": prompt_sha,
        "sampling": sampling or {},
        "inputs": inputs,
        "sample": sample,
    }
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class JudgeCache:
    """A diskcache folder of judge answers. Thread-safe (diskcache opens one SQLite connection per thread).

    >>> import tempfile
    >>> c = JudgeCache(tempfile.mkdtemp())
    >>> c.get("k") is None
    True
    >>> c.set("k", {"verdict": "MATCH", "reason": "same"}, model="m")
    True
    >>> c.get("k")["verdict"], c.stats()["models"]
    ('MATCH', {'m': 1})
    """

    def __init__(
        self, directory: str | os.PathLike[str] | None = None, *, create: bool = True, strict: bool = True
    ) -> None:
        """``create=False`` does not create a missing cache (for looking only). ``strict=False``: a cache
        that cannot be opened (unwritable folder, corrupt database) warns and works as an empty,
        read-only-nothing cache, so scoring goes on; ``strict=True`` raises ConfigError."""
        self.directory = Path(directory).expanduser() if directory else default_cache_dir()
        self.read_errors = 0
        self.write_errors = 0
        self.strict = strict
        self.open_error: str | None = None
        """Why the cache could not be opened (``strict=False`` only); None when it works."""
        self._cache: Any = None
        if create or (self.directory / "cache.db").exists():
            self._cache = self._open()

    def _open(self) -> Any:
        import diskcache

        try:
            # tag_index makes per-model eviction (``cache clear --model``) an index lookup
            return diskcache.Cache(str(self.directory), tag_index=True)
        except Exception as exc:  # noqa: BLE001 - any failure to open is a user-fixable location problem
            message = (
                f"cannot open the judge cache at {self.directory}: {exc} - "
                f"pass --cache-dir (or set {CACHE_ENV}) to a writable folder"
            )
            if self.strict:
                raise ConfigError(message) from exc
            warnings.warn(message + "; going on without a cache", RuntimeWarning, stacklevel=3)
            self.open_error = message
            return None

    # -- answers -------------------------------------------------------------------------------------
    def get(self, key: str) -> dict[str, Any] | None:
        """The stored answer for ``key``, or None (missing, unreadable or not a valid verdict)."""
        if self._cache is None:
            return None
        try:
            raw = self._cache.get(key, default=None, retry=True)
            if raw is None:
                return None
            value = json.loads(raw)
        except Exception:  # noqa: BLE001 - a corrupt entry or a locked database is a miss, never a crash
            self.read_errors += 1
            return None
        if not isinstance(value, dict) or value.get("verdict") not in _VERDICTS:
            self.read_errors += 1
            return None
        return value

    def set(self, key: str, value: dict[str, Any], *, model: str) -> bool:
        """Store a valid answer as JSON text, tagged with its model. Returns False if it could not be written."""
        if value.get("verdict") not in _VERDICTS:
            raise ValueError(f"only MATCH/NO_MATCH answers are cached, got {value.get('verdict')!r}")
        if self._cache is None and self.open_error is None:
            self._cache = self._open()
        if self._cache is None:
            self.write_errors += 1
            return False
        try:
            text = json.dumps(value, sort_keys=True, ensure_ascii=False)
            self._cache.set(key, text, tag=model, retry=True)
        except Exception:  # noqa: BLE001 - a full disk must not stop scoring; the answer is still used
            self.write_errors += 1
            return False
        return True

    # -- maintenance ---------------------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        """``{"path", "entries", "size_bytes", "models": {model: entries}, "tasks": {task: entries}}``."""
        out: dict[str, Any] = {"path": str(self.directory), "entries": 0, "size_bytes": 0, "models": {}, "tasks": {}}
        if self._cache is None:
            return out
        models: dict[str, int] = {}
        tasks: dict[str, int] = {}
        for key in self._cache.iterkeys():
            try:
                raw, tag = self._cache.get(key, default=None, tag=True, retry=True)
                task = json.loads(raw).get("task", "?") if raw is not None else "?"
            except Exception:  # noqa: BLE001
                tag, task = None, "?"
            models[tag or "?"] = models.get(tag or "?", 0) + 1
            tasks[task] = tasks.get(task, 0) + 1
        out["entries"] = sum(models.values())
        out["size_bytes"] = int(self._cache.volume())
        out["models"] = dict(sorted(models.items()))
        out["tasks"] = dict(sorted(tasks.items()))
        return out

    def clear(self, model: str | None = None) -> int:
        """Remove every entry, or only those of ``model``. Returns how many were removed."""
        if self._cache is None:
            return 0
        if model is None:
            return int(self._cache.clear(retry=True))
        return int(self._cache.evict(model, retry=True))

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()

    def __enter__(self) -> "JudgeCache":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __bool__(self) -> bool:
        # an empty cache is still a cache (``if judge.cache:`` must not depend on its size)
        return True

    def __len__(self) -> int:
        return 0 if self._cache is None else len(self._cache)
