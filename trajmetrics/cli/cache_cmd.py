"""``trajmetrics cache``: inspect and clear the judge answer cache."""

from __future__ import annotations

import json

import click

from ..judges.cache import CACHE_ENV, JudgeCache, default_cache_dir

_cache_dir_option = click.option(
    "--cache-dir",
    envvar=CACHE_ENV,
    type=click.Path(file_okay=False),
    default=None,
    show_envvar=True,
    help="Judge answer cache folder (default: the user cache folder + trajmetrics).",
)


def _open(cache_dir: str | None) -> JudgeCache:
    # create=False: looking at a cache must not create an empty one
    return JudgeCache(cache_dir or default_cache_dir(), create=False)


def _human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{n} B"  # pragma: no cover


@click.group(name="cache", context_settings={"help_option_names": ["-h", "--help"]})
def command() -> None:
    """Inspect or clear the judge answer cache."""


@command.command("stats")
@_cache_dir_option
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True, help="Output format."
)
def stats(cache_dir: str | None, fmt: str) -> None:
    """Entries per model and per judge task, and the size on disk."""
    with _open(cache_dir) as cache:
        info = cache.stats()
    if fmt == "json":
        click.echo(json.dumps(info, indent=2, sort_keys=True))
        return
    click.echo(f"Cache: {info['path']}")
    click.echo(f"Entries: {info['entries']} ({_human_size(info['size_bytes'])})")
    if info["models"]:
        width = max(len("MODEL"), *(len(m) for m in info["models"]))
        click.echo(f"{'MODEL':<{width}}  ENTRIES")
        for model, n in info["models"].items():
            click.echo(f"{model:<{width}}  {n}")
    if info["tasks"]:
        click.echo("By task: " + ", ".join(f"{t} {n}" for t, n in info["tasks"].items()))


@command.command("clear")
@_cache_dir_option
@click.option("--model", default=None, help="Remove only this model's answers.")
@click.option("--all", "clear_all", is_flag=True, help="Remove every cached answer.")
def clear(cache_dir: str | None, model: str | None, clear_all: bool) -> None:
    """Remove cached answers: one model's (--model M) or all (--all)."""
    if bool(model) == clear_all:
        raise click.UsageError("pass either --model MODEL or --all")
    with _open(cache_dir) as cache:
        removed = cache.clear(model=model)
        where = cache.directory
    what = f" for model {model}" if model else ""
    click.echo(f"Removed {removed} cached answer{'s' if removed != 1 else ''}{what} from {where}")
