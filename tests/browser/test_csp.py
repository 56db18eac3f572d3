"""The pages work under their Content Security Policy: nothing the browser refuses, on the pages and
interactions that use htmx, the websocket, the CodeMirror editor, the resource bars and the run
player; and only the embed view can be framed by another site."""

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_board import open_gallery_copy

pytestmark = pytest.mark.browser

# Injected by Playwright through the DevTools protocol, so the policy does not apply to it.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__cspViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} at ${where}`);
});
"""


class Violations:
    """CSP violations seen by a page: its console messages and the securitypolicyviolation events."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        page.on("console", self._console)
        page.add_init_script(RECORD_VIOLATIONS)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            self.console.append(message.text)

    def all(self) -> list[str]:
        return [*self.console, *self.page.evaluate("window.__cspViolations ?? []")]


@contextmanager
def serving(html: str) -> Iterator[str]:
    """A one-page web site on a port of its own: a different origin from the app's."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_pages_work_under_the_csp_and_the_browser_refuses_nothing(page: Page, server_url: str, screenshot_path):
    violations = Violations(page)
    response = page.goto(server_url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    expect(page.locator("#status-badge")).to_contain_text("database: ok")  # htmx ran and swapped
    assert violations.all() == []

    open_gallery_copy(page, server_url, "HA nginx spread one per node, behind Services and an Ingress")
    # CodeMirror's own stylesheet (a <style> element with the page's nonce) applies.
    editor = page.locator(".cm-editor")
    expect(editor).to_be_visible()
    assert editor.evaluate("element => getComputedStyle(element).display") == "flex"
    # Resource bars are SVG geometry, not style attributes.
    assert page.locator("#board [style]").count() == 0
    expect(page.locator(".node-card .bar rect.fill").first).to_have_attribute("width", re.compile(r"^\d+$"))

    page.get_by_test_id("run").click()  # the run streams over the websocket (connect-src)
    status = page.locator("[data-player='status']")
    expect(status).to_contain_text("finished", timeout=15_000)
    page.locator("[data-player='speed']").select_option("instant")
    pod = page.locator("#board .pod[data-pod-key][title*='ReplicaSet/']").first  # a pod with an owner
    expect(pod).to_be_visible(timeout=15_000)
    # The run player colours pods by their owner with a class (no style attribute, which CSP refuses).
    expect(pod).to_have_class(re.compile(r"\bhue-\d+\b"))
    assert pod.evaluate("element => getComputedStyle(element).getPropertyValue('--owner-hue')").strip() != ""
    pod.click()
    expect(page.locator("#explain")).to_be_visible()  # htmx.ajax fetched the explanation
    page.locator("select[name='view']").select_option("table")
    expect(page.locator(".node-table .bar rect.fill").first).to_be_attached()
    page.screenshot(path=screenshot_path, full_page=True)
    assert violations.all() == []


def test_only_the_embed_view_can_be_framed_by_another_site(browser: Browser, server_url: str):
    page = browser.new_page()  # not the `page` fixture: this test expects a refusal in the console
    open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    scenario_url = page.url
    permalink = re.search(r"/embed/(\w+)", page.content()).group(1)
    embed_url = f"{server_url}/embed/{permalink}"
    host_page = (
        f'<!doctype html><title>another site</title><iframe id="embed" src="{embed_url}"></iframe>'
        f'<iframe id="app" src="{scenario_url}"></iframe>'
    )
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if "frame-ancestors" in message.text else None)
    with serving(host_page) as another_site:  # another origin (a port of its own) on this machine
        page.goto(another_site)
        expect(page.frame_locator("#embed").locator("h1")).to_have_text("GPU node reserved with a taint")
        for _ in range(50):
            if refused:
                break
            page.wait_for_timeout(100)
        # Chromium names only the origin in the message: one refusal, and the app's frame stays empty.
        assert len(refused) == 1, refused
        assert page.frame_locator("#app").locator("h1.scenario-title").count() == 0
    page.close()
