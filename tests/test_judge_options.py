"""make_judge, the shared judge CLI options and their errors."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner
from fake_openai import fake_openai  # noqa: F401

from trajmetrics.cli.judge_options import JUDGE_OPTION_NAMES, judge_from_options, judge_options
from trajmetrics.errors import ConfigError
from trajmetrics.judges import OpenAIJudge, make_judge


@click.command()
@judge_options
@click.option("--other", default="x")
def probe(other: str, **kwargs):
    """A stand-in for `score`: builds the judge from the options and prints what it got."""
    judge = judge_from_options(kwargs)
    assert not set(kwargs) & set(JUDGE_OPTION_NAMES), "judge options were not popped"
    if judge is None:
        click.echo(f"none other={other}")
    else:
        s = judge.stats()
        click.echo(f"{s['model']} {s['base_url']} {s['cache_dir']} {judge.concurrency} {s['max_calls']} "
                   f"{s['samples']} {judge.timeout:g} other={other}")
        judge.close()


def invoke(*args, env=None):
    return CliRunner().invoke(probe, list(args), env=env)


def test_default_is_no_judge():
    result = invoke()
    assert result.exit_code == 0 and result.output == "none other=x\n"


def test_all_options_reach_the_judge(fake_openai, tmp_path):
    result = invoke(
        "--judge", "openai", "--model", "my-model", "--base-url", fake_openai.base_url,
        "--cache-dir", str(tmp_path), "--judge-concurrency", "3", "--judge-max-calls", "10",
        "--judge-samples", "3", "--judge-timeout", "2.5", "--other", "y",
        env={"OPENAI_API_KEY": "k"},
    )
    assert result.exit_code == 0, result.output
    assert result.output == f"my-model {fake_openai.base_url} {tmp_path} 3 10 3 2.5 other=y\n"


def test_environment_variables(fake_openai, tmp_path):
    env = {"OPENAI_API_KEY": "k", "TRAJMETRICS_JUDGE_MODEL": "env-model", "OPENAI_BASE_URL": fake_openai.base_url,
           "TRAJMETRICS_CACHE_DIR": str(tmp_path)}
    result = invoke("--judge", "openai", env=env)
    assert result.exit_code == 0, result.output
    assert result.output == f"env-model {fake_openai.base_url} {tmp_path} 8 None 1 30 other=x\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--judge", "claude"], "'claude' is not one of 'none', 'openai'"),
        (["--judge-concurrency", "0"], "0 is not in the range x>=1"),
        (["--judge-samples", "0"], "0 is not in the range x>=1"),
        (["--judge-max-calls", "-1"], "-1 is not in the range x>=0"),
        (["--judge-timeout", "0"], "0.0 is not in the range x>0"),
    ],
)
def test_bad_values_are_usage_errors(args, message):
    result = invoke(*args)
    assert result.exit_code == 2 and message in result.output


def test_help_lists_the_options_and_envvars():
    result = invoke("--help")
    for text in ("--judge [none|openai]", "--model", "TRAJMETRICS_JUDGE_MODEL", "--base-url", "OPENAI_BASE_URL",
                 "--cache-dir", "TRAJMETRICS_CACHE_DIR", "--judge-concurrency", "--judge-max-calls",
                 "--judge-samples", "--judge-timeout"):
        assert text in result.output, text


def test_missing_key_is_one_line_and_exit_1(tmp_path):
    # the group class of the real entry point turns the ConfigError into one line and exit 1
    from trajmetrics.cli.main import _Group

    group = _Group(commands={"probe": probe})
    env = {"OPENAI_API_KEY": None, "TRAJMETRICS_RAISE_ERRORS": None}
    result = CliRunner().invoke(group, ["probe", "--judge", "openai", "--cache-dir", str(tmp_path)], env=env)
    assert result.exit_code == 1
    assert result.output == (
        "Error: No key found - set OPENAI_API_KEY (any value for a local --base-url server) or pass --judge none\n"
    )


def test_judge_from_keyword_arguments(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    judge = judge_from_options(judge="openai", model="m", base_url=fake_openai.base_url, cache_dir=str(tmp_path),
                               judge_concurrency=2, judge_max_calls=None, judge_samples=1, judge_timeout=5.0,
                               unrelated="ignored")
    assert isinstance(judge, OpenAIJudge) and judge.concurrency == 2
    judge.close()
    assert judge_from_options(judge="none", model="m") is None


def test_make_judge(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert make_judge("none") is None
    judge = make_judge("openai", model="m", cache_dir=tmp_path, max_calls=5)
    assert isinstance(judge, OpenAIJudge) and judge.max_calls == 5
    judge.close()
    with pytest.raises(ConfigError, match="--judge: expected one of none, openai, found 'gpt'"):
        make_judge("gpt")


def test_cli_help_does_not_import_openai():
    import subprocess
    import sys

    code = ("import sys; from click.testing import CliRunner; from trajmetrics.cli.main import cli; "
            "CliRunner().invoke(cli, ['--help']); print('openai' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
