"""The judge options shared by ``score`` and ``agreement``.

Usage in a command::

    @click.command()
    @judge_options
    def score(..., **kwargs):
        judge = judge_from_options(kwargs)   # pops the judge options from kwargs
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import click

# only the light modules: `trajmetrics --help` must not import openai
from ..judges import DEFAULT_MODEL, JUDGE_KINDS, make_judge
from ..judges.cache import CACHE_ENV
from ..matching.decision import Judge

F = TypeVar("F", bound=Callable[..., Any])

#: The keyword names the options add to a command.
JUDGE_OPTION_NAMES: tuple[str, ...] = (
    "judge",
    "model",
    "base_url",
    "cache_dir",
    "judge_concurrency",
    "judge_max_calls",
    "judge_samples",
    "judge_timeout",
)


def judge_options(f: F) -> F:
    """Add ``--judge``, ``--model``, ``--base-url``, ``--cache-dir`` and the ``--judge-*`` limits to a command."""
    options = [
        click.option(
            "--judge",
            type=click.Choice(JUDGE_KINDS),
            default="none",
            show_default=True,
            help="Who decides the pairs the rules are UNSURE about: none (use --unsure-policy) or an "
            "OpenAI-compatible model (key from OPENAI_API_KEY).",
        ),
        click.option(
            "--model",
            envvar="TRAJMETRICS_JUDGE_MODEL",
            default=DEFAULT_MODEL,
            show_default=True,
            show_envvar=True,
            help="Judge model name.",
        ),
        click.option(
            "--base-url",
            envvar="OPENAI_BASE_URL",
            default=None,
            show_envvar=True,
            help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (default: OpenAI).",
        ),
        click.option(
            "--cache-dir",
            envvar=CACHE_ENV,
            type=click.Path(file_okay=False),
            default=None,
            show_envvar=True,
            help="Judge answer cache folder (default: the user cache folder + trajmetrics).",
        ),
        click.option(
            "--judge-concurrency",
            type=click.IntRange(min=1),
            default=8,
            show_default=True,
            help="Judge calls in flight at once.",
        ),
        click.option(
            "--judge-max-calls",
            type=click.IntRange(min=0),
            default=None,
            help="Stop calling the judge after this many calls; later UNSURE pairs use --unsure-policy "
            "(0 = answer from the cache only).",
        ),
        click.option(
            "--judge-samples",
            type=click.IntRange(min=1),
            default=1,
            show_default=True,
            help="Ask each question N times and take the majority (a tie uses --unsure-policy).",
        ),
        click.option(
            "--judge-timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=30.0,
            show_default=True,
            help="Seconds to wait for one judge reply before retrying.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def judge_from_options(options: dict[str, Any] | None = None, /, **kwargs: Any) -> Judge | None:
    """Build the judge from the option values: ``judge_from_options(kwargs)`` pops them from the dict;
    ``judge_from_options(**kwargs)`` reads them (other keys are ignored). None for ``--judge none``."""
    source = options if options is not None else dict(kwargs)
    values = {name: source.pop(name, None) for name in JUDGE_OPTION_NAMES}
    return make_judge(
        values["judge"] or "none",
        model=values["model"] or DEFAULT_MODEL,
        base_url=values["base_url"] or None,
        cache_dir=values["cache_dir"] or None,
        concurrency=values["judge_concurrency"] or 8,
        max_calls=values["judge_max_calls"],
        samples=values["judge_samples"] or 1,
        timeout=values["judge_timeout"] or 30.0,
    )


__all__ = ["JUDGE_OPTION_NAMES", "judge_from_options", "judge_options"]
