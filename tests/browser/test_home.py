import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_home_page_loads_htmx_and_shows_live_service_status(page: Page, server_url: str, screenshot_path):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server_url + "/")

    expect(page.get_by_role("heading", name="See how Kubernetes places pods.")).to_be_visible()
    assert page.evaluate("typeof window.htmx") == "object"
    # The footer badge is fetched by htmx after load: proof that htmx runs and the server answers.
    badge = page.locator("#status-badge")
    expect(badge).to_contain_text("database: ok")
    expect(badge).to_contain_text("channel layer: ok")
    page.screenshot(path=screenshot_path, full_page=True)
