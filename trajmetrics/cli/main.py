"""Entry point: `trajmetrics`. Subcommands are registered from their own modules.

Expected errors (bad input, bad options) print one line and exit 1 (2 for bad options); set
TRAJMETRICS_RAISE_ERRORS=1 to see the full traceback instead.
"""

from __future__ import annotations

import os
import sys

import click

from .. import __version__
from ..errors import TrajmetricsError

ROOT_HELP = """Score web-agent runs against human gold paths with five process metrics.

\b
Recipe (no key, no network):
  trajmetrics score examples/agent_run.jsonl --gold examples/gold.jsonl
  trajmetrics score RESULTS_DIR --gold gold.xlsx --tasks test.raw.json --format json
"""


class _Group(click.Group):
    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except TrajmetricsError as exc:
            if os.environ.get("TRAJMETRICS_RAISE_ERRORS"):
                raise
            raise click.ClickException(str(exc)) from None
        except BrokenPipeError:
            # `trajmetrics score ... | head`: the reader has gone; stop quietly, like other Unix tools.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(141)
        except (OSError, UnicodeDecodeError) as exc:
            if os.environ.get("TRAJMETRICS_RAISE_ERRORS"):
                raise
            raise click.ClickException(f"{type(exc).__name__}: {exc}") from None


@click.group(cls=_Group, help=ROOT_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trajmetrics")
def cli() -> None:
    pass


def _register() -> None:
    # Each module defines one click command or group named `command`; a missing module is skipped so
    # parts of the CLI can land independently.
    import importlib

    for name in ("score_cmd", "compare_cmd", "agreement_cmd", "gold_cmd", "agent_cmd", "schema_cmd", "cache_cmd"):
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__package__}.{name}":
                continue
            raise
        cli.add_command(module.command)


_register()


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="trajmetrics")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
