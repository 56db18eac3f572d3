import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground import preview, ratelimit
from tests.servers import DaphneServer, manage, postgres_test_database_url, server_environment

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


@pytest.fixture(scope="session", autouse=True)
def _static_files(collected_static: Path) -> None:
    """Pages name their scripts by hashed name, from the collected manifest (tests/conftest.py)."""


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with full token buckets (they live in the process' cache)."""
    ratelimit.reset()
    yield
    ratelimit.reset()


@pytest.fixture(autouse=True)
def _previews_settled() -> Iterator[None]:
    """A page view of a big board starts its preview in this process' worker pool and answers
    before it is done: the next test waits for it here, so that it does not share the machine's two
    cores (and its CPU-second budgets) with seconds of simulation left behind by another test."""
    yield
    deadline = time.monotonic() + PREVIEW_SETTLE_SECONDS
    while time.monotonic() < deadline:
        with preview._lock:
            if not preview._jobs:
                return
        time.sleep(0.05)


PREVIEW_SETTLE_SECONDS = 120.0  # the largest preview a web test starts (5,000 nodes) takes a few


@pytest.fixture
def server_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The environment of a server process on this pass's database: pytest-django's test database on
    the PostgreSQL pass, a fresh migrated SQLite file of its own on the embedded default."""
    if ON_POSTGRES:
        request.getfixturevalue("transactional_db")
        return server_environment(tmp_path, DATABASE_URL=postgres_test_database_url())
    env = server_environment(tmp_path)
    manage(env, "migrate", "--noinput")
    return env


@pytest.fixture
def live_server_process(server_env: dict[str, str]) -> Iterator[DaphneServer]:
    """A real Daphne process (websockets included) on this pass's database."""
    server = DaphneServer(server_env)
    server.start()
    try:
        yield server
    finally:
        server.stop()
