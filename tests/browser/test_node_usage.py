"""The page's node-usage.js prints a node's amounts as the server prints them
(scheduler_core.api.quantity.format_quantity): a bar redrawn in the browser during playback reads as
the one the server rendered."""

import pytest
from playwright.sync_api import Page

from scheduler_core.api.quantity import format_quantity

pytestmark = pytest.mark.browser

AMOUNTS = [
    *(0, 1, 7, 999, 1000, 1024, 1536, 2000, 4096, 110, 250, 1500, 3000, 10**6, 3 * 2**20, 500 * 10**6),
    *(3584 * 2**20, 2**30, 32817148 * 2**10, 31482236 * 2**10, 64 * 2**30, 10**12, 2**40, 7 * 10**15),
]
RESOURCES = ["cpu", "memory", "pods", "ephemeral-storage", "nvidia.com/gpu", "hugepages-2Mi"]


def test_the_page_prints_amounts_as_the_server_does(page: Page, server_url: str):
    page.goto(server_url + "/")
    cases = [[resource, amount] for resource in RESOURCES for amount in AMOUNTS]
    printed = page.evaluate(
        """async (cases) => {
          const { formatAmount } = await import('/static/js/node-usage.js');
          return cases.map(([resource, amount]) => formatAmount(resource, amount));
        }""",
        cases,
    )
    assert printed == [format_quantity(resource, amount) for resource, amount in cases]
