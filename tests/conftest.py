"""Shared fixtures. Data-backed tests use `shared_data`: skipped with a reason on a fresh machine,
failed (never skipped) when TRAJMETRICS_SHARED_DATA is set but the folder is not there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TEST_DATA = Path(__file__).resolve().parent / "data"


def _shared_data_dir() -> Path | None:
    env = os.environ.get("TRAJMETRICS_SHARED_DATA")
    if env:
        path = Path(env)
        if not path.is_absolute():
            # CI sets a path relative to the checkout
            path = (REPO / env) if (REPO / env).exists() else Path(env).resolve()
        if not path.is_dir():
            pytest.fail(f"TRAJMETRICS_SHARED_DATA={env} is set but {path} is not a folder", pytrace=False)
        return path
    default = REPO.parent / "shared" / "data"
    return default if default.is_dir() else None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = _shared_data_dir()
    if path is None:
        pytest.skip("needs ../shared/data: set TRAJMETRICS_SHARED_DATA to the shared data folder")
    return path


@pytest.fixture(scope="session")
def test_data() -> Path:
    return TEST_DATA
