"""Browser tests: a real Daphne server in its own process (Django's live_server has no
websockets) on a fresh SQLite file, driven by Debian's Chromium through Playwright."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import ROOT, DaphneServer, manage, server_environment

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = ROOT / "var" / "screenshots"  # pytest-playwright empties test-results/ itself


@pytest.fixture(scope="session")
def session_server(tmp_path_factory: pytest.TempPathFactory, collected_static: Path) -> Iterator[DaphneServer]:
    """One Daphne for the whole browser session, on its own SQLite file, with the gallery loaded and
    the static files collected (before it starts, so that it need not)."""
    # Rate limits off: every test shares 127.0.0.1 and together they start far more runs than one
    # person may. tests/web checks the limits; test_rate_limits.py shows a 429 in the page.
    # The form limit at Django's default (the app's is 32 MiB, for imports): test_form_limits.py
    # pastes text over it, which a browser does in a moment at 2.5 MiB.
    # An import's file at 4 MiB (the app's is 128 MiB): test_form_limits.py chooses a file over it.
    env = server_environment(
        tmp_path_factory.mktemp("server-var"),
        RATE_LIMITS="0",
        UPLOAD_MAX_BYTES="2621440",
        IMPORT_MAX_UPLOAD_BYTES=str(4 << 20),
    )
    manage(env, "migrate", "--noinput")
    manage(env, "load_gallery")
    server = DaphneServer(env)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def server_url(session_server: DaphneServer) -> str:
    return session_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }


@pytest.fixture
def screenshot_path(request: pytest.FixtureRequest) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{request.node.name}.png"


# Reports each CSP violation to the test as it happens (exposed functions outlive navigations).
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  const element = event.target instanceof Element ? event.target : null;
  window.__cspViolation({
    directive: event.effectiveDirective,
    blocked: event.blockedURI || "inline",
    source: `${event.sourceFile}:${event.lineNumber}`,
    inEditorText: Boolean(element?.closest(".cm-content")),
    element: element ? element.outerHTML.slice(0, 200) : "",
  });
});
"""


@pytest.fixture(autouse=True)
def _no_csp_violations(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test that drives `page` fails if the browser refused anything under the app's CSP.

    One exception: a style attribute inside CodeMirror's contenteditable text. Playwright's fill()
    inserts text with the browser's editing commands, which style the lines they create; the editor
    re-renders them at once. Typing and pasting never do this, and no code of ours writes style
    attributes (tests/web/test_security.py checks the templates).
    """
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    violations: list[dict] = []
    page.expose_function("__cspViolation", lambda violation: violations.append(violation))
    page.add_init_script(REPORT_CSP_VIOLATIONS)
    yield
    refused = [v for v in violations if not (v["directive"] == "style-src-attr" and v["inEditorText"])]
    assert refused == [], f"Content Security Policy violations: {refused}"
