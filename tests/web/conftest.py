import pytest

from playground import ratelimit


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with full token buckets (they live in the process' cache)."""
    ratelimit.reset()
    yield
    ratelimit.reset()
