"""The server dies in the middle of a run (killed, as a crash or an OOM kill would) and comes back:
the page reconnects by itself, learns the run was interrupted, resumes it, and ends with every event
once, in order: the same run as one that was never interrupted."""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.big_scenarios import wide_deployment
from tests.servers import DaphneServer, create_scenario, manage, server_environment

pytestmark = pytest.mark.browser


@pytest.fixture
def restartable_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    var_dir = tmp_path_factory.mktemp("restart-var")
    # A dead executor is noticed after 2 s of silence instead of 30, to keep the test short.
    env = server_environment(var_dir, RUN_STALE_SECONDS="2")
    manage(env, "migrate", "--noinput")
    server = DaphneServer(env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def event_count(page: Page) -> tuple[int, int]:
    text = page.locator("[data-player='status']").inner_text()
    match = re.search(r"event (\d+)/(\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def test_a_run_interrupted_by_a_server_restart_resumes_without_a_reload(
    page: Page, restartable_server: DaphneServer, screenshot_path
):
    links = create_scenario(restartable_server.env, wide_deployment(nodes=100, replicas=1000))
    page.goto(restartable_server.url + links["view"])
    expect(page.locator("html[data-run-player='ready']")).to_have_count(1)
    page.get_by_test_id("run").click()
    status = page.locator("[data-player='status']")
    # Kill the server once the run has streamed some events but is far from done.
    expect(status).to_contain_text(re.compile(r"event \d+/[1-9]\d{2,} · running"), timeout=30_000)
    received_before = event_count(page)[1]
    restartable_server.kill()
    restartable_server.start()  # same port, same database; the run's thread died with the process

    resume = page.locator("[data-player='resume']")
    expect(resume).to_be_visible(timeout=30_000)  # reconnected on its own and told "interrupted"
    expect(status).to_contain_text("interrupted after event")
    page.locator(".workspace").screenshot(path=screenshot_path)
    resume.get_by_role("button", name="Resume run").click()
    expect(status).to_contain_text("finished", timeout=90_000)
    expect(resume).to_be_hidden()
    page.locator("[data-player='speed']").select_option("instant")
    expect(status).to_contain_text(re.compile(r"event (\d+)/\1 · finished"), timeout=30_000)
    _, total = event_count(page)
    assert total > received_before

    # The same version and seed run again from scratch, uninterrupted, gives as many events.
    page.get_by_test_id("run").click()
    expect(status).to_contain_text("finished", timeout=90_000)
    expect(status).to_contain_text(re.compile(rf"event \d+/{total} · finished"), timeout=30_000)
