"""Browser tests: a real Daphne server in its own process (Django's live_server has no
websockets) on a fresh SQLite file, driven by Debian's Chromium through Playwright."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = ROOT / "var" / "screenshots"  # pytest-playwright empties test-results/ itself


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_serving(url: str, server: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer at {url} within {timeout:.0f}s")


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    var_dir = tmp_path_factory.mktemp("server-var")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "playground.settings",
        "SECRET_KEY": "browser-test-secret-key",
        "PLAYGROUND_VAR_DIR": str(var_dir),
        "SQLITE_PATH": str(var_dir / "db.sqlite3"),
    }
    # The browser pass always runs on the embedded default, whatever the outer environment says.
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    for command in (["migrate", "--noinput"], ["load_gallery"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
        )
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "playground.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(url, server)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


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
