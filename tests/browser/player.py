"""Driving the run player the way every run test starts."""

import re

from playwright.sync_api import Page, expect


def play_to_the_end(page: Page, timeout: float = 20_000) -> int:
    """Presses Run, waits for the run to finish, shows its last event; returns its number of events."""
    page.get_by_test_id("run").click()
    status = page.locator("[data-player='status']")
    expect(status).to_contain_text("finished", timeout=timeout)
    page.locator("[data-player='speed']").select_option("instant")
    expect(status).to_contain_text(re.compile(r"event (\d+)/\1 · finished"))
    return int(re.search(r"event \d+/(\d+)", status.inner_text()).group(1))
