"""Editing never drops work: two tabs and two browsers on one scenario, Act then Save, drafts
across reloads, the palette and edit rights that belong where they should (issue #12, items 1-4)."""

import re
import urllib.request

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute, expect

from tests.browser.player import play_to_the_end

pytestmark = pytest.mark.browser

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        resources: {requests: {cpu: 100m, memory: 64Mi}}
"""


def ready(page: Page) -> None:
    expect(page.locator("html")).to_have_attribute("data-board", "ready")
    expect(page.locator("html")).to_have_attribute("data-workload-versions", "ready")


def editor_text(page: Page) -> str:
    return page.locator("#workload").input_value()


def type_workload(page: Page, text: str) -> None:
    page.locator("#workload-form .cm-content").fill(text)
    expect(page.locator("#workload")).to_have_value(text)


def save(page: Page) -> None:
    page.locator("#workload-form").get_by_role("button", name="Save").click()


def version_of(page: Page) -> int:
    return int(page.locator("#board .version").inner_text().lstrip("v"))


def new_scenario_with_deployment(page: Page, server_url: str) -> str:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(server_url + "/")
    page.get_by_role("button", name="Start with a blank cluster").click()
    ready(page)
    type_workload(page, DEPLOYMENT)
    save(page)
    expect(page.locator("#board .version")).to_have_text("v2")
    return page.url


def saved_workload(server_url: str, scenario_url: str) -> str:
    slug = scenario_url.rstrip("/").split("/s/")[1].split("?")[0]
    # The whole scenario: the default export is the Kubernetes objects alone, without the timeline.
    with urllib.request.urlopen(f"{server_url}/s/{slug}/export.yaml?part=all") as response:
        return response.read().decode()


def edit_link(page: Page) -> str:
    page.locator("details.share summary").click()
    link = page.get_by_test_id("edit-link").input_value()
    page.locator("details.share summary").click()
    return link


def second_tab_saves(page: Page, url: str, text: str, version: str) -> None:
    """Another tab of the same browser saves `text`, which becomes `version`."""
    tab = page.context.new_page()
    tab.goto(url)
    ready(tab)
    type_workload(tab, text)
    save(tab)
    expect(tab.locator("#board .version")).to_have_text(version)
    tab.close()


def second_editor(browser: Browser, link: str) -> tuple[BrowserContext, Page]:
    """Another browser (its own cookies) holding the same scenario's edit rights."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    other = context.new_page()
    other.goto(link)
    ready(other)
    expect(other.locator("#workload-form").get_by_role("button", name="Save")).to_be_visible()
    return context, other


# ---------------------------------------------------------------------------- 1. two tabs, two browsers


def test_a_clean_tab_follows_a_save_made_in_another_tab(page: Page, server_url: str):
    url = new_scenario_with_deployment(page, server_url)
    tab_b = page.context.new_page()
    tab_b.goto(url)
    ready(tab_b)
    type_workload(page, DEPLOYMENT.replace("replicas: 2", "replicas: 3"))
    save(page)
    expect(tab_b.locator("#board .version")).to_have_text("v3")
    expect(tab_b.locator("#workload")).to_have_value(re.compile("replicas: 3"))


def test_a_board_answered_late_with_an_older_version_is_fetched_again(page: Page, server_url: str):
    """Two board requests race: one answered as of v2 lands after v3 was saved and replaces the
    board the live refresh was aimed at (htmx drops that refresh's answer). The page still ends
    on v3, and its clean editor follows."""
    url = new_scenario_with_deployment(page, server_url)
    board_url = server_url + page.locator(".scenario").get_attribute("data-board-url") + "?view=auto"
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    asked = urllib.request.Request(board_url, headers={"Cookie": cookies, "HX-Request": "true"})
    with urllib.request.urlopen(asked) as answer:
        as_of_v2 = answer.read()  # what a board request asked just before the save is answered
    assert b'data-version="2"' in as_of_v2
    held = []  # the board requests page A makes, unanswered until the test says
    page.route(re.compile(r"/board\?"), lambda route: held.append(route) if len(held) < 2 else route.continue_())
    # The board's own request (its "placing pods" poll does this), still unanswered when v3 lands;
    # not awaited (htmx.ajax's promise settles with its answer).
    page.evaluate(
        "() => { htmx.ajax('GET', document.querySelector('.scenario').dataset.boardUrl + '?view=auto', "
        "{source: '#board', target: '#board', swap: 'outerHTML'}); }"
    )
    second_tab_saves(page, url, DEPLOYMENT.replace("replicas: 2", "replicas: 5"), "v3")
    # Page A heard "changed" and asked for the board again: the older answer lands first.
    for _ in range(100):
        if len(held) >= 2:
            break
        page.wait_for_timeout(50)
    assert len(held) == 2, f"{len(held)} board requests held"
    held[0].fulfill(status=200, content_type="text/html; charset=utf-8", body=as_of_v2)
    expect(page.locator("#board .version")).to_have_text("v2")
    held[1].continue_()
    expect(page.locator("#board .version")).to_have_text("v3")
    expect(page.locator("#workload")).to_have_value(re.compile("replicas: 5"))


def test_edits_of_different_lines_in_two_tabs_are_merged_and_both_kept(page: Page, server_url: str):
    url = new_scenario_with_deployment(page, server_url)
    tab_b = page.context.new_page()
    tab_b.goto(url)
    ready(tab_b)
    # B starts an edit of the image; A saves a change of replicas meanwhile.
    type_workload(tab_b, DEPLOYMENT.replace("nginx:1.25", "nginx:1.26"))
    type_workload(page, DEPLOYMENT.replace("replicas: 2", "replicas: 3"))
    save(page)
    expect(tab_b.locator("#board .version")).to_have_text("v3")
    # B's editor took A's change in without losing its own, and says so.
    expect(tab_b.locator("#workload")).to_have_value(re.compile(r"replicas: 3[\s\S]*nginx:1\.26"))
    expect(tab_b.locator("#workload-note")).to_contain_text("merged")
    save(tab_b)
    expect(tab_b.locator("#board .version")).to_have_text("v4")
    saved = saved_workload(server_url, url)
    assert "replicas: 3" in saved and "nginx:1.26" in saved


def test_a_save_based_on_an_old_version_is_refused_then_merged_and_saved(page: Page, server_url: str):
    """The editor's save names the version its text started from: a save racing another one
    is refused (409) and, the edits not overlapping, merged and saved again by itself."""
    url = new_scenario_with_deployment(page, server_url)
    tab_b = page.context.new_page()
    # The tab's live updates pass through here, so that the test can hold them back while another
    # save lands: on a loaded machine the update of that save could otherwise reach the tab first.
    held: list[str | bytes] = []
    holding = [False]
    routes: list[WebSocketRoute] = []

    def relay(route: WebSocketRoute) -> None:
        server = route.connect_to_server()
        server.on_message(lambda message: held.append(message) if holding[0] else route.send(message))
        routes.append(route)

    tab_b.route_web_socket(re.compile(r"/ws/scenarios/"), relay)
    tab_b.goto(url)
    ready(tab_b)
    type_workload(tab_b, DEPLOYMENT.replace("nginx:1.25", "nginx:1.27"))
    # Another save lands without this tab hearing of it first (no live update in between).
    slug = url.split("/s/")[1]
    refusals = []
    tab_b.on("response", lambda r: refusals.append(r.status) if r.url.endswith("/workload") else None)
    holding[0] = True
    tab_b.evaluate(
        """async ([slug, text]) => {
          const token = document.querySelector('#workload-form [name=csrfmiddlewaretoken]').value;
          const body = new FormData();
          body.set('csrfmiddlewaretoken', token);
          body.set('version', document.querySelector('#board').dataset.version);
          body.set('workload', text);
          await fetch(`/s/${slug}/workload`, {method: 'POST', body});
          // At once, before the live update of that save can reach this tab: a save on the old base.
          document.querySelector('#workload-form button.primary').click();
        }""",
        [slug, DEPLOYMENT.replace("replicas: 2", "replicas: 5")],
    )
    expect(tab_b.locator("#board .version")).to_have_text("v4")
    assert 409 in refusals
    holding[0] = False
    for message in held:  # the late live updates change nothing any more
        routes[-1].send(message)
    saved = saved_workload(server_url, url)
    assert "replicas: 5" in saved and "nginx:1.27" in saved
    expect(tab_b.locator("#board .flash.error")).to_have_count(0)


def test_overlapping_edits_in_two_browsers_show_both_and_lose_neither(page: Page, browser: Browser, server_url: str):
    url = new_scenario_with_deployment(page, server_url)
    context, other = second_editor(browser, edit_link(page))
    try:
        type_workload(other, DEPLOYMENT.replace("replicas: 2", "replicas: 6"))
        type_workload(page, DEPLOYMENT.replace("replicas: 2", "replicas: 5"))
        save(page)
        conflict = other.locator("#workload-conflict")
        expect(conflict).to_be_visible()
        expect(conflict).to_contain_text("replicas: 6")
        expect(conflict).to_contain_text("replicas: 5")
        other.screenshot(path="var/screenshots/conflict-panel.png", full_page=False)
        # Take theirs, keep mine as a draft: the editor shows v3, the own text can be reopened.
        other.get_by_test_id("take-theirs").click()
        expect(other.locator("#workload")).to_have_value(re.compile("replicas: 5"))
        other.get_by_test_id("open-kept").click()
        expect(other.locator("#workload")).to_have_value(re.compile("replicas: 6"))
        # Resolving in the editor: markers around both, saved once resolved.
        type_workload(page, DEPLOYMENT.replace("replicas: 2", "replicas: 7"))
        save(page)
        expect(other.locator("#workload-conflict")).to_be_visible()
        other.get_by_test_id("resolve-in-editor").click()
        expect(other.locator("#workload")).to_have_value(
            re.compile(r"<<<<<<< yours\n  replicas: 6\n=======\n  replicas: 7\n>>>>>>> v\d+")
        )
        type_workload(other, DEPLOYMENT.replace("replicas: 2", "replicas: 8"))
        save(other)
        expect(other.locator("#board .version")).to_have_text("v5")
        assert "replicas: 8" in saved_workload(server_url, url)
    finally:
        context.close()


def test_mine_can_be_saved_as_a_fork_when_edits_overlap(page: Page, browser: Browser, server_url: str):
    url = new_scenario_with_deployment(page, server_url)
    context, other = second_editor(browser, edit_link(page))
    try:
        type_workload(other, DEPLOYMENT.replace("replicas: 2", "replicas: 9"))
        type_workload(page, DEPLOYMENT.replace("replicas: 2", "replicas: 4"))
        save(page)
        expect(other.locator("#workload-conflict")).to_be_visible()
        other.get_by_test_id("fork-mine").click()
        expect(other).not_to_have_url(url)
        ready(other)
        expect(other.locator("#workload")).to_have_value(re.compile("replicas: 9"))
        assert "replicas: 4" in saved_workload(server_url, url)
        assert "replicas: 9" in saved_workload(server_url, other.url)
    finally:
        context.close()


# ---------------------------------------------------------------------------- 2. Act, then Save


def test_an_action_taken_during_a_run_reaches_the_editor_and_survives_the_next_save(page: Page, server_url: str):
    url = new_scenario_with_deployment(page, server_url)
    play_to_the_end(page)
    act = page.locator("form.act")
    act.locator("select[name=op]").select_option("set-image")
    act.locator("select[name=target]").select_option("Deployment/default/web")
    act.locator("input[name=value]").fill("nginx:1.28")
    act.get_by_role("button", name="Do it").click()
    expect(page.locator("#workload")).to_have_value(re.compile(r"kind: Action[\s\S]*nginx:1\.28"))
    page.get_by_role("tab", name="Workload").click()  # the run's tab was in front
    text = editor_text(page)
    type_workload(page, text.replace("replicas: 2", "replicas: 4"))
    save(page)
    expect(page.locator("#board .version")).to_have_text("v4")
    saved = saved_workload(server_url, url)
    assert "kind: Action" in saved and "nginx:1.28" in saved and "replicas: 4" in saved


# ---------------------------------------------------------------------------- 3. drafts and the palette


def test_an_unsaved_edit_comes_back_after_a_reload_and_leaving_asks_first(page: Page, server_url: str):
    new_scenario_with_deployment(page, server_url)
    draft = DEPLOYMENT.replace("nginx:1.25", "nginx:draft")
    type_workload(page, draft)
    dialogs: list[str] = []

    def accept(dialog):
        dialogs.append(dialog.type)
        dialog.accept()

    page.on("dialog", accept)
    page.locator("#board").click(position={"x": 5, "y": 5})  # a user gesture, so the browser may ask
    page.wait_for_timeout(400)  # the draft is written 300 ms after the last keystroke
    page.reload()
    ready(page)
    assert dialogs == ["beforeunload"]
    expect(page.locator("#workload")).to_have_value(draft)
    expect(page.locator("#workload-note")).to_contain_text("is back")
    # Discarding it brings the saved text back and forgets the draft.
    page.get_by_test_id("discard-draft").click()
    expect(page.locator("#workload")).to_have_value(DEPLOYMENT)
    page.reload()
    ready(page)
    expect(page.locator("#workload")).to_have_value(DEPLOYMENT)
    assert dialogs == ["beforeunload"]  # nothing unsaved: no question this time


def test_a_draft_is_merged_with_a_version_saved_while_it_waited(page: Page, browser: Browser, server_url: str):
    url = new_scenario_with_deployment(page, server_url)
    link = edit_link(page)
    page.on("dialog", lambda dialog: dialog.accept())
    type_workload(page, DEPLOYMENT.replace("nginx:1.25", "nginx:later"))
    page.wait_for_timeout(400)
    page.goto(server_url + "/")
    # Meanwhile someone else (another browser: drafts are per browser) saves another change.
    context, other = second_editor(browser, link)
    try:
        type_workload(other, DEPLOYMENT.replace("replicas: 2", "replicas: 3"))
        save(other)
        expect(other.locator("#board .version")).to_have_text("v3")
    finally:
        context.close()
    page.goto(url)
    ready(page)
    expect(page.locator("#workload")).to_have_value(re.compile(r"replicas: 3[\s\S]*nginx:later"))
    expect(page.locator("#workload-note")).to_contain_text("merged with v3")


def test_palette_chips_belong_to_the_scenario(page: Page, server_url: str):
    url = new_scenario_with_deployment(page, server_url)
    form = page.locator(".palette-add:has(input[value='label'])")
    form.locator("input[name=key]").fill("team")
    form.locator("input[name=value]").fill("payments")
    form.get_by_role("button", name="Add to palette").click()
    chip = page.locator(".palette .chip.label", has_text="team=payments")
    expect(chip).to_be_visible()
    other_tab = page.context.new_page()
    other_tab.goto(url)
    ready(other_tab)
    expect(other_tab.locator(".palette .chip.label", has_text="team=payments")).to_be_visible()
    page.reload()
    ready(page)
    chip.drag_to(page.locator(".node-card[data-node-name='worker2']"))
    expect(page.locator(".node-card[data-node-name='worker2'] .node-labels")).to_contain_text("team=payments")
    page.get_by_role("button", name="Remove team from the palette").click()
    expect(page.locator(".palette .chip.label", has_text="team=payments")).to_have_count(0)
    # A bad key is refused with Kubernetes' words, nothing added.
    form = page.locator(".palette-add:has(input[value='label'])")
    form.locator("input[name=key]").fill("<b>x</b>")
    form.get_by_role("button", name="Add to palette").click()
    expect(page.locator(".palette .flash.error")).to_contain_text("invalid label key")


# ---------------------------------------------------------------------------- 4. edit rights, renaming


def test_a_hundred_scenarios_in_one_browser_keep_their_edit_rights(page: Page, server_url: str):
    page.goto(server_url + "/")
    token = page.locator("form[action='/scenarios/new'] [name=csrfmiddlewaretoken]").input_value()
    slugs = []
    for _ in range(100):
        response = page.request.post(
            server_url + "/scenarios/new", form={"csrfmiddlewaretoken": token}, max_redirects=0
        )
        assert response.status == 302, response.status
        slugs.append(response.headers["location"].rstrip("/").split("/s/")[1])
    cookies = {cookie["name"]: cookie["value"] for cookie in page.context.cookies()}
    assert len(cookies["sessionid"]) < 100  # a key, not the rights themselves
    for slug in (slugs[0], slugs[49], slugs[99]):
        page.goto(f"{server_url}/s/{slug}")
        ready(page)
        expect(page.locator("#workload-form").get_by_role("button", name="Save")).to_be_visible()
        expect(page.locator(".palette")).to_be_visible()
    page.goto(server_url + "/mine")
    rows = page.locator(".mine-table tbody tr")
    expect(rows).to_have_count(100)
    expect(rows.first).to_have_attribute("data-slug", slugs[-1])


def test_a_creator_is_told_to_keep_the_edit_link_and_a_viewer_sees_read_only(
    page: Page, browser: Browser, server_url: str
):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(server_url + "/")
    page.get_by_role("button", name="Start with a blank cluster").click()
    ready(page)
    keep = page.get_by_test_id("keep-edit-link")
    expect(keep).to_be_visible()
    expect(keep.locator("input")).to_have_value(re.compile(r"/s/\w+/edit"))
    page.reload()
    ready(page)
    expect(page.get_by_test_id("keep-edit-link")).to_have_count(0)  # once
    viewer_context = browser.new_context()
    try:
        viewer = viewer_context.new_page()
        viewer.goto(page.url)
        notice = viewer.get_by_test_id("read-only")
        expect(notice).to_be_visible()
        notice.get_by_role("button", name="Fork to edit").click()
        ready(viewer)
        expect(viewer.locator("#workload-form").get_by_role("button", name="Save")).to_be_visible()
    finally:
        viewer_context.close()


def test_a_scenario_is_renamed_on_the_page(page: Page, server_url: str):
    new_scenario_with_deployment(page, server_url)
    page.get_by_test_id("rename").locator("summary").click()
    page.get_by_label("Title").fill("Payments on three workers")
    page.get_by_role("button", name="Save title").click()
    expect(page.locator("h1.scenario-title")).to_have_text("Payments on three workers")
    expect(page.locator("#board .version")).to_have_text("v3")
    page.reload()
    expect(page.locator("h1.scenario-title")).to_have_text("Payments on three workers")


def test_a_rename_answered_after_the_live_refresh_still_shows_the_new_title(page: Page, server_url: str):
    """The rename's own answer lands after the live refresh of the version it made replaced the
    board: htmx drops that answer (its target is gone), and the refreshed board brings the title."""
    new_scenario_with_deployment(page, server_url)
    held = []

    def answer_late(route):  # type: ignore[no-untyped-def]
        held.append((route, route.fetch()))  # the server saves it now; the page hears of it later

    page.route("**/details", answer_late)
    page.get_by_test_id("rename").locator("summary").click()
    page.get_by_label("Title").fill("Payments on three workers")
    page.get_by_role("button", name="Save title").click()
    expect(page.locator("#board .version")).to_have_text("v3")  # the live refresh, first
    route, response = held[0]
    route.fulfill(response=response)
    expect(page.locator("h1.scenario-title")).to_have_text("Payments on three workers")
    page.reload()
    expect(page.locator("h1.scenario-title")).to_have_text("Payments on three workers")


def test_a_stale_error_banner_goes_once_the_text_is_valid(page: Page, server_url: str):
    new_scenario_with_deployment(page, server_url)
    type_workload(page, DEPLOYMENT.replace("replicas: 2", "replicas: two"))
    save(page)
    banner = page.locator("#board .flash.error")
    expect(banner).to_be_visible()
    type_workload(page, DEPLOYMENT.replace("replicas: 2", "replicas: 3"))
    expect(page.locator("#validation")).to_have_text("✓ valid")
    expect(banner).to_have_count(0)


# ---------------------------------------------------------------------------- the merge itself

MERGE_CASES = [
    # (base, mine, theirs, clean, merged text or None)
    ("a\nb\nc\nd\ne\n", "a\nB\nc\nd\ne\n", "a\nb\nc\nD\ne\n", True, "a\nB\nc\nD\ne\n"),
    # Changes to adjacent lines overlap, as in git: a person decides.
    ("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n", False, None),
    ("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n", True, "a\nB\nc\n"),
    ("a\nb\nc\n", "a\nX\nc\n", "a\nY\nc\n", False, "a\n<<<<<<< yours\nX\n=======\nY\n>>>>>>> theirs\nc\n"),
    ("a\nb\nc\n", "x\na\nb\nc\n", "a\nb\nc\ny\n", True, "x\na\nb\nc\ny\n"),
    ("a\nb\nc\nd\n", "a\nc\nd\n", "a\nb\nc\nD\n", True, "a\nc\nD\n"),
    ("", "mine\n", "theirs\n", False, None),
    ("a\n", "a\n", "b\n", True, "b\n"),
]


def test_three_way_merge_cases(page: Page, server_url: str):
    page.goto(server_url + "/")
    results = page.evaluate(
        """async (cases) => {
          const { mergeTexts } = await import('/static/js/three-way-merge.js');
          return cases.map(([base, mine, theirs]) => mergeTexts(base, mine, theirs));
        }""",
        [case[:3] for case in MERGE_CASES],
    )
    for (base, mine, theirs, clean, text), result in zip(MERGE_CASES, results, strict=True):
        assert result["clean"] is clean, (base, mine, theirs, result)
        if text is not None:
            assert result["text"] == text, (base, mine, theirs, result)
