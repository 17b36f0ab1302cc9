"""JudgeCache, cache keys, the default location and the ``trajmetrics cache`` command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trajmetrics.cli.main import cli
from trajmetrics.errors import ConfigError
from trajmetrics.judges import JudgeCache, cache_key, default_cache_dir

ANSWER = {"verdict": "MATCH", "reason": "same", "task": "step"}


def key(**kw) -> str:
    parts = dict(task="step", model="m", base_url=None, prompt_version="step_v1", inputs={"left": "a", "right": "b"})
    parts.update(kw)
    return cache_key(**parts)


def test_miss_then_hit(tmp_path):
    with JudgeCache(tmp_path) as cache:
        assert cache.get(key()) is None
        assert cache.set(key(), ANSWER, model="m")
        assert cache.get(key()) == ANSWER
        assert len(cache) == 1


def test_key_covers_what_changes_the_answer():
    base = key()
    assert base == key(base_url="https://api.openai.com/v1/")
    assert len(base) == 64 and int(base, 16) >= 0
    for change in (
        {"task": "repeat"},
        {"model": "m2"},
        {"base_url": "http://localhost:8000/v1"},
        {"prompt_version": "step_v2"},
        {"prompt_sha": "abc"},
        {"sampling": {"temperature": 0.5}},
        {"inputs": {"left": "a", "right": "c"}},
        {"sample": 1},
    ):
        assert key(**change) != base, change


def test_key_is_independent_of_dict_order():
    assert key(inputs={"left": "a", "right": "b"}) == key(inputs={"right": "b", "left": "a"})


def test_only_valid_verdicts_are_stored(tmp_path):
    with JudgeCache(tmp_path) as cache, pytest.raises(ValueError):
        cache.set(key(), {"verdict": None, "error": "boom"}, model="m")


@pytest.mark.parametrize("raw", ["{not json", json.dumps({"verdict": "MAYBE"}), json.dumps(["MATCH"])])
def test_bad_stored_values_are_misses(tmp_path, raw):
    import diskcache

    with diskcache.Cache(str(tmp_path)) as dc:
        dc.set(key(), raw)
    with JudgeCache(tmp_path) as cache:
        assert cache.get(key()) is None
        assert cache.read_errors == 1


def test_read_failure_is_a_miss(tmp_path, monkeypatch):
    with JudgeCache(tmp_path) as cache:
        cache.set(key(), ANSWER, model="m")

        def explode(*args, **kwargs):
            raise OSError("disk I/O error")

        monkeypatch.setattr(cache._cache, "get", explode)
        assert cache.get(key()) is None and cache.read_errors == 1


def test_unopenable_location_is_a_config_error_when_strict(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match="cannot open the judge cache at .* pass --cache-dir"):
        JudgeCache(blocker / "cache")


def test_corrupt_database_warns_and_goes_on_when_not_strict(tmp_path):
    (tmp_path / "cache.db").write_bytes(b"this is not an sqlite database" * 100)
    with pytest.warns(RuntimeWarning, match="cannot open the judge cache"):
        cache = JudgeCache(tmp_path, strict=False)
    assert cache.open_error and cache.get(key()) is None
    assert cache.set(key(), ANSWER, model="m") is False and cache.write_errors == 1


def test_stats_and_clear(tmp_path):
    with JudgeCache(tmp_path) as cache:
        cache.set(key(sample=0), ANSWER, model="gpt-a")
        cache.set(key(sample=1), ANSWER, model="gpt-a")
        cache.set(key(model="gpt-b"), {**ANSWER, "task": "repeat"}, model="gpt-b")
        info = cache.stats()
        assert info["entries"] == 3 and info["size_bytes"] > 0
        assert info["models"] == {"gpt-a": 2, "gpt-b": 1}
        assert info["tasks"] == {"repeat": 1, "step": 2}
        assert cache.clear(model="gpt-a") == 2
        assert cache.clear(model="nobody") == 0
        assert cache.stats()["models"] == {"gpt-b": 1}
        assert cache.clear() == 1 and len(cache) == 0


def test_looking_does_not_create(tmp_path):
    where = tmp_path / "nothing-here"
    with JudgeCache(where, create=False) as cache:
        assert cache.get(key()) is None
        assert cache.stats()["entries"] == 0 and cache.clear() == 0
    assert not where.exists()


def test_default_location_env_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("TRAJMETRICS_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG layout")
def test_default_location_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("TRAJMETRICS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "trajmetrics"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert default_cache_dir() == Path.home() / ".cache" / "trajmetrics"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == Path.home() / ".cache" / "trajmetrics"


def test_platform_conventions(monkeypatch, tmp_path):
    monkeypatch.delenv("TRAJMETRICS_CACHE_DIR", raising=False)
    monkeypatch.setattr(sys, "platform", "darwin")
    assert default_cache_dir() == Path.home() / "Library" / "Caches" / "trajmetrics"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path))
    assert default_cache_dir() == tmp_path / "trajmetrics" / "Cache"


# -- CLI ------------------------------------------------------------------------------------------------------


@pytest.fixture
def filled(tmp_path) -> Path:
    where = tmp_path / "c"
    with JudgeCache(where) as cache:
        cache.set(key(sample=0), ANSWER, model="gpt-4o-mini")
        cache.set(key(sample=1), ANSWER, model="gpt-4o-mini")
        cache.set(key(model="llama"), {**ANSWER, "task": "requirement"}, model="llama")
    return where


def run(*args: str, env: dict | None = None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_cli_stats_json(filled):
    result = run("cache", "stats", "--cache-dir", str(filled), "--format", "json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert info["path"] == str(filled) and info["entries"] == 3
    assert info["models"] == {"gpt-4o-mini": 2, "llama": 1}
    assert info["tasks"] == {"requirement": 1, "step": 2}


def test_cli_stats_table(filled):
    result = run("cache", "stats", env={"TRAJMETRICS_CACHE_DIR": str(filled)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"Cache: {filled}"
    assert lines[1].startswith("Entries: 3 (") and lines[1].endswith("kB)")
    assert lines[2:] == [
        "MODEL        ENTRIES",
        "gpt-4o-mini  2",
        "llama        1",
        "By task: requirement 1, step 2",
    ]


def test_cli_stats_empty_does_not_create(tmp_path):
    where = tmp_path / "none"
    result = run("cache", "stats", "--cache-dir", str(where))
    assert result.exit_code == 0
    assert result.output == f"Cache: {where}\nEntries: 0 (0 B)\n"
    assert not where.exists()


def test_cli_clear_one_model(filled):
    result = run("cache", "clear", "--cache-dir", str(filled), "--model", "gpt-4o-mini")
    assert result.exit_code == 0
    assert result.output == f"Removed 2 cached answers for model gpt-4o-mini from {filled}\n"
    with JudgeCache(filled) as cache:
        assert cache.stats()["models"] == {"llama": 1}


def test_cli_clear_all(filled):
    result = run("cache", "clear", "--cache-dir", str(filled), "--all")
    assert result.exit_code == 0
    assert result.output == f"Removed 3 cached answers from {filled}\n"


@pytest.mark.parametrize("args", [[], ["--all", "--model", "x"]])
def test_cli_clear_needs_exactly_one_choice(filled, args):
    result = run("cache", "clear", "--cache-dir", str(filled), *args)
    assert result.exit_code == 2
    assert "Error: pass either --model MODEL or --all" in result.output


def test_cli_help_lists_the_subcommands():
    result = run("cache", "-h")
    assert result.exit_code == 0
    assert "stats" in result.output and "clear" in result.output
