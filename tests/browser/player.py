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


def step_forward(page: Page) -> None:
    """One step, waited for: the status names the next event before the caller looks again (on a
    loaded machine it was drawn late, and a second click then went two events on, past what a test
    looks for)."""
    status = page.locator("[data-player='status']")
    before = status.inner_text()
    page.get_by_role("button", name="Step forward").click()
    expect(status).not_to_have_text(before)
