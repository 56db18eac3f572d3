import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_no_violations
from tests.browser.player import play_to_the_end
from tests.browser.test_board import open_gallery_copy
from tests.browser.test_imported_workload import import_big_cluster

pytestmark = pytest.mark.browser

TOPOLOGY_SPREAD = "topologySpreadConstraints: even across zones and nodes"
GPU = "GPU node reserved with a taint"


def bare_pod(name: str) -> str:
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n  - name: app\n    image: app\n"
        "    resources:\n      requests: {cpu: '1', memory: 2Gi}\n"
    )


# Three bare pods (which MostAllocated packs) and a Deployment (which default spreading keeps apart).
WORKLOAD = "---\n".join([bare_pod("one"), bare_pod("two"), bare_pod("three")]) + (
    "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n"
    "  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
    "    spec:\n      containers:\n      - name: web\n        image: nginx\n"
    "        resources:\n          requests: {cpu: 500m, memory: 1Gi}\n"
)
BAD_CONFIG = (
    "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
    "profiles:\n- schedulerName: default-scheduler\n  percentageOfNodesToScore: 150\n"
)


def test_a_run_against_bin_packing_side_by_side_then_a_configuration_with_an_error(
    page: Page, server_url: str, screenshot_path
):
    open_gallery_copy(page, server_url, TOPOLOGY_SPREAD)  # two zones of two nodes
    page.locator("#workload-form .cm-content").fill(WORKLOAD)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#board .version")).to_have_text("v2")
    play_to_the_end(page)
    run_id = page.locator("#run-panel").get_attribute("data-run-id")

    page.get_by_role("link", name="Compare…").click()
    expect(page.locator("h1")).to_contain_text("Compare")
    expect(page.locator("select[name=a]")).to_have_value(run_id)
    expect(page.locator("#compare-result")).to_contain_text("Choose what A and B are")
    page.get_by_label("bin packing (MostAllocated)").check()
    page.get_by_test_id("compare").click()

    diff = page.get_by_test_id("diff")
    expect(diff).to_be_visible(timeout=20_000)
    expect(page).to_have_url(re.compile(rf"a={run_id}.*config=bin-packing"))  # the result has a link of its own
    # The bare pods are stacked on one node in B; every moved pod names its two nodes.
    for row in diff.locator("tbody tr").all():
        cells = row.locator("td")
        assert re.fullmatch(r"node-[ab]-[12]", cells.nth(1).inner_text())
        assert re.fullmatch(r"node-[ab]-[12]", cells.nth(2).inner_text())
    expect(diff.locator("tr", has_text="default/two")).to_contain_text("moved")
    columns = page.locator(".compare-column")
    expect(columns).to_have_count(2)
    expect(columns.nth(0)).to_contain_text(f"Run {run_id}")
    expect(columns.nth(1)).to_contain_text("bin packing (MostAllocated)")
    expect(columns.nth(1).locator(".zone-counts li")).to_have_count(2)
    expect(page.locator(".summary-table tr", has_text="nodes used")).to_be_visible()
    # Side by side: the two columns share a row.
    box_a, box_b = columns.nth(0).bounding_box(), columns.nth(1).bounding_box()
    assert box_a and box_b and abs(box_a["y"] - box_b["y"]) < 1 and box_b["x"] > box_a["x"] + box_a["width"]
    page.screenshot(path=screenshot_path, full_page=True)

    page.get_by_label("a KubeSchedulerConfiguration of your own").check()
    page.locator(".compare-config summary").click()
    page.locator("textarea[name=config_yaml]").fill(BAD_CONFIG)
    page.get_by_test_id("compare").click()
    problem = page.get_by_test_id("problem-B")
    expect(problem).to_contain_text("The scheduler configuration does not load.")
    expect(problem).to_contain_text("line 5: KubeSchedulerConfiguration profiles[0].percentageOfNodesToScore")
    expect(problem).to_contain_text("not in valid range [0-100]")
    expect(page.get_by_test_id("diff")).to_have_count(0)
    page.screenshot(path=screenshot_path.with_name(screenshot_path.stem + "-error.png"), full_page=True)


def test_after_acting_the_new_run_compares_with_the_previous_one_and_the_old_run_offers_a_re_run(
    page: Page, server_url: str, screenshot_path
):
    scenario_url = open_gallery_copy(page, server_url, GPU)
    play_to_the_end(page)
    first_run = page.locator("#run-panel").get_attribute("data-run-id")
    expect(page.get_by_test_id("stale-run")).to_be_hidden()
    page.locator("[data-player='speed']").select_option("instant")
    act = page.locator("form.act")
    act.locator("select[name=op]").select_option("taint")
    act.locator("select[name=target]").select_option("Node/worker2")
    act.locator("input[name=value]").fill("maintenance=true:NoExecute")
    act.get_by_role("button", name="Do it").click()
    expect(page.locator("#run-panel")).not_to_have_attribute("data-run-id", first_run, timeout=10_000)
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=20_000)
    second_run = page.locator("#run-panel").get_attribute("data-run-id")
    assert second_run != first_run

    page.get_by_test_id("compare-previous").click()
    expect(page.locator("select[name=a]")).to_have_value(first_run)
    expect(page.locator("select[name=b]")).to_have_value(second_run)
    diff = page.get_by_test_id("diff")
    expect(diff).to_be_visible(timeout=20_000)
    # The NoExecute taint evicts what ran on worker2 and tolerates nothing: those pods are gone in B.
    expect(diff).to_contain_text("worker2")
    expect(diff.locator(".change").first).to_have_text(re.compile("only in A|moved|became Pending"))
    page.screenshot(path=screenshot_path.with_name(screenshot_path.stem + "-diff.png"), full_page=True)

    page.goto(f"{scenario_url}?run={first_run}")
    notice = page.get_by_test_id("stale-run")
    expect(notice).to_have_text(re.compile(r"This run is of v1; the scenario is now v2\."))
    page.locator(".workspace").screenshot(path=screenshot_path.with_name(screenshot_path.stem + "-stale.png"))
    page.get_by_role("button", name="Re-run v2").click()
    expect(page.locator("#run-panel")).not_to_have_attribute("data-run-id", first_run)
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=20_000)
    expect(page.get_by_test_id("stale-run")).to_be_hidden()
    page.screenshot(path=screenshot_path, full_page=True)


def test_a_big_scenarios_comparison_polls_until_its_result(page: Page, server_url: str, screenshot_path):
    """Over 64 KiB of YAML both sides are simulated off the request; the result keeps asking (its
    polls cost no run token: ten of them once ended in 429) until the columns are there."""
    url = import_big_cluster(page, server_url)  # 20 nodes, 1,500 pods
    slug = url.split("/s/")[1].split("?")[0].split("/")[0]
    statuses: list[int] = []
    page.on("response", lambda response: statuses.append(response.status) if "/compare" in response.url else None)
    page.goto(f"{server_url}/s/{slug}/compare?config=bin-packing")
    expect(page.locator("#compare-result .compare-columns").first).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("simulating-sides")).to_have_count(0)
    assert page.locator("#compare-result").count() == 1 and 429 not in statuses
    assert statuses[0] in (200, 202) and statuses[-1] == 200
    for scheme in ("light", "dark"):  # its cordoned node's row was faded below WCAG's contrast
        page.emulate_media(color_scheme=scheme)
        assert_no_violations(page)
    page.locator("#compare-result tr.cordoned").first.screenshot(path=screenshot_path)
