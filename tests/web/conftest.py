import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground import ratelimit
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
