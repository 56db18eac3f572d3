"""Every gallery scenario runs in Chromium, and each of its pods can be asked why it is where it is."""

import re
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Page, expect

from tests.browser.player import play_to_the_end
from tests.browser.test_board import open_gallery_copy

pytestmark = pytest.mark.browser

GALLERY = Path(__file__).resolve().parents[2] / "playground" / "gallery"
TITLES = [yaml.safe_load(path.read_text().split("\n---\n", 1)[0])["title"] for path in sorted(GALLERY.glob("*.yaml"))]


@pytest.mark.parametrize("title", TITLES)
def test_a_gallery_scenario_runs_and_explains_its_pods(page: Page, server_url: str, title: str):
    open_gallery_copy(page, server_url, title)
    play_to_the_end(page, timeout=60_000)
    expect(page.locator("[data-player='log'] tr").first).to_be_visible()
    pods = page.locator("#board .pod[data-pod-key], [data-player='pending'] .pod[data-pod-key]")
    if pods.count():
        pods.first.click()
        expect(page.locator("#explain")).to_contain_text(re.compile(r"kube-scheduler picks|Pending\."))
