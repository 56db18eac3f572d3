"""The kubectl console in the page (issue #17, item 1): the tutorials' commands typed as their
readers type them, the output as kubectl prints it, and a change seen on the board (the run goes on
from the player's moment, as Act does). Seed 000: the GPU taint walkthrough; seed 003: cordon,
drain against a PodDisruptionBudget, and a rolling update."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.player import play_to_the_end
from tests.browser.test_board import node_card, open_gallery_copy
from tests.servers import DaphneServer, create_scenario

pytestmark = pytest.mark.browser


def open_console(page: Page) -> None:
    expect(page.locator("html")).to_have_attribute("data-kubectl-console", "ready")
    page.get_by_role("tab", name="kubectl").click()
    page.get_by_role("textbox", name="kubectl command").click()


def type_command(page: Page, line: str):
    """Types a line, presses Enter and returns its entry in the log once the output is there."""
    entries = page.get_by_test_id("console-entry")
    before = entries.count()
    field = page.get_by_role("textbox", name="kubectl command")
    field.fill(line)
    field.press("Enter")
    expect(entries).to_have_count(before + 1)
    entry = entries.nth(before)
    expect(entry.locator(".console-out, .console-err, .console-info")).not_to_have_count(0, timeout=15_000)
    return entry


def new_run_played(page: Page, old_run: str) -> None:
    """The run panel holds the run a change started, and the player has reached its end."""
    panel = page.locator("#run-panel")
    expect(panel).not_to_have_attribute("data-run-id", old_run)
    page.locator("[data-player='speed']").select_option("instant")
    expect(page.locator("[data-player='status']")).to_contain_text(
        re.compile(r"event (\d+)/\1 · finished"), timeout=20_000
    )


PYTORCH = """apiVersion: v1
kind: Pod
metadata:
  name: pytorch3
spec:
  nodeSelector: {nvidia.com/gpu.present: "true"}
  tolerations:
  - {key: isgpu, operator: Equal, value: "true", effect: NoSchedule}
  containers:
  - {name: pytorch, image: pytorch/pytorch}
"""


def test_seed_000_taint_walkthrough_typed_into_the_console(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    play_to_the_end(page)
    open_console(page)

    nodes = type_command(page, "kubectl get nodes")
    out = nodes.locator(".console-out")
    expect(out).to_contain_text(re.compile(r"^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION"))
    expect(out).to_contain_text("worker3")
    expect(nodes.locator(".console-where")).to_contain_text("at event")

    # The tutorial's template, typed as written: kubectl's own refusal.
    template = type_command(page, "kubectl taint node worker1 key:value:effect")
    expect(template.locator(".console-err")).to_contain_text("invalid taint spec")

    described = type_command(page, "kubectl describe node worker3")
    expect(described.locator(".console-out")).to_contain_text(re.compile(r"Taints:\s+isgpu=true:NoSchedule"))

    run_before = page.locator("#run-panel").get_attribute("data-run-id")
    tainted = type_command(page, "kubectl taint nodes worker1 isgpu=true:NoSchedule")
    expect(tainted.locator(".console-out")).to_have_text("node/worker1 tainted\n")
    expect(tainted.locator(".console-note")).to_contain_text("On the timeline at")
    new_run_played(page, run_before)
    expect(node_card(page, "worker1").locator(".chip.taint")).to_contain_text("isgpu=true:NoSchedule")
    yaml_out = type_command(page, "kubectl get node worker1 -o yaml")
    expect(yaml_out.locator(".console-out")).to_contain_text("key: isgpu")

    # The tutorial's pod, applied with -f: the page asks for the file's text (pasted here).
    field = page.get_by_role("textbox", name="kubectl command")
    field.fill("kubectl apply -f pytorch3.yaml")
    field.press("Enter")
    box = page.locator("[data-console-file]")
    expect(box).to_be_visible()
    expect(box.locator("legend")).to_contain_text("pytorch3.yaml")
    box.get_by_role("textbox").fill(PYTORCH)
    run_before = page.locator("#run-panel").get_attribute("data-run-id")
    box.get_by_role("button", name="Send with the command").click()
    applied = page.get_by_test_id("console-entry").last
    expect(applied.locator(".console-out")).to_have_text("pod/pytorch3 created\n")
    expect(box).to_be_hidden()
    new_run_played(page, run_before)
    placed = type_command(page, "kubectl get pod pytorch3 -o wide")
    expect(placed.locator(".console-out")).to_contain_text(re.compile(r"pytorch3\s+1/1\s+Running.*worker3"))


def test_history_and_completion_from_the_keyboard(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    play_to_the_end(page)
    open_console(page)
    field = page.get_by_role("textbox", name="kubectl command")
    field.fill("kubectl rollo")
    field.press("Tab")
    expect(field).to_have_value("kubectl rollout ")
    field.fill("kubectl cordon w")
    field.press("Tab")
    expect(field).to_have_value("kubectl cordon worker")
    candidates = page.locator("[data-console-candidates]")
    expect(candidates).to_have_text(re.compile(r"worker1\s+worker2\s+worker3"))
    field.press("3")
    field.press("Tab")
    expect(field).to_have_value("kubectl cordon worker3 ")

    type_command(page, "kubectl get pods")
    type_command(page, "kubectl version")
    field.press("ArrowUp")
    expect(field).to_have_value("kubectl version")
    field.press("ArrowUp")
    expect(field).to_have_value("kubectl get pods")
    field.press("ArrowDown")
    field.press("ArrowDown")
    expect(field).to_have_value("")
    field.press("Escape")
    field.press("Tab")  # Esc, then Tab: focus moves on, as in the workload editor
    expect(field).not_to_be_focused()

    field.fill("clear")
    field.press("Enter")
    expect(page.get_by_test_id("console-entry")).to_have_count(0)

    # edit: the object's document, in the Workload tab's editor.
    field.fill("kubectl edit pod pytorch2")
    field.press("Enter")
    expect(page.get_by_role("tab", name="Workload")).to_have_attribute("aria-selected", "true")
    active = page.locator("#side-workload .cm-activeLine")
    expect(active).to_contain_text("apiVersion: v1")
    expect(active.locator("xpath=following-sibling::div[position() <= 2]").last).to_contain_text("name: pytorch2")
    page.get_by_role("tab", name="kubectl").click()
    expect(page.get_by_test_id("console-entry").last.locator(".console-note")).to_contain_text(
        re.compile(r"Pod/pytorch2 opened in the Workload tab at line \d+")
    )


DRAIN = """apiVersion: playground/v1
kind: Scenario
title: Drain from the console
---
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker2}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: nginx, image: "nginx:1.24", readinessProbe: {initialDelaySeconds: 20, periodSeconds: 10}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
  minAvailable: 3
  selector: {matchLabels: {app: web}}
"""


def test_seed_003_drain_with_a_budget_then_a_rolling_update(page: Page, session_server: DaphneServer) -> None:
    links = create_scenario(session_server.env, DRAIN)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(session_server.url + links["edit"])
    expect(page.locator("html")).to_have_attribute("data-run-player", "ready")
    play_to_the_end(page)
    open_console(page)

    listed = type_command(page, "kubectl get pods -o wide")
    expect(listed.locator(".console-out")).to_contain_text("worker1")

    run_before = page.locator("#run-panel").get_attribute("data-run-id")
    drained = type_command(page, "kubectl drain worker1 --ignore-daemonsets")
    out = drained.locator(".console-out")
    expect(out).to_contain_text(re.compile(r"^node/worker1 cordoned\nevicting pod default/web-"))
    new_run_played(page, run_before)
    # The console follows the drain as kubectl does: the budget's refusals, each eviction, the end.
    expect(out).to_contain_text(
        "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."
    )
    expect(out).to_contain_text(re.compile(r"pod/web-\S+ evicted"))
    expect(out).to_contain_text("node/worker1 drained", timeout=20_000)
    expect(drained.locator(".console-watching")).to_have_count(0)
    # The budget held evictions back (the engine's drain retries on its 429, as kubectl does), and
    # in the end every pod runs on worker2.
    events = page.locator("[data-player='log']")
    expect(events).to_contain_text("Cannot evict pod as it would violate the pod's disruption budget")
    after = type_command(page, "kubectl get pods -o wide")
    rows = after.locator(".console-out").inner_text().splitlines()[1:]
    assert len(rows) == 4 and all("worker2" in row for row in rows), rows
    nodes = type_command(page, "kubectl get nodes")
    expect(nodes.locator(".console-out")).to_contain_text(re.compile(r"worker1\s+Ready,SchedulingDisabled"))

    run_before = page.locator("#run-panel").get_attribute("data-run-id")
    updated = type_command(page, "kubectl set image deployment/web nginx=nginx:1.25")
    expect(updated.locator(".console-out")).to_have_text("deployment.apps/web image updated\n")
    new_run_played(page, run_before)
    status = type_command(page, "kubectl rollout status deployment/web")
    expect(status.locator(".console-out")).to_contain_text('deployment "web" successfully rolled out')
    history = type_command(page, "kubectl rollout history deployment/web")
    expect(history.locator(".console-out")).to_contain_text(
        re.compile(r"REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>")
    )
    images = type_command(page, "kubectl get deploy -o wide")
    expect(images.locator(".console-out")).to_contain_text("nginx:1.25")


def test_a_viewer_reads_and_is_refused_changes(page: Page, session_server: DaphneServer) -> None:
    links = create_scenario(session_server.env, DRAIN)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(session_server.url + links["view"])
    expect(page.get_by_test_id("read-only")).to_be_visible()
    open_console(page)
    # No run yet: the console starts one, reads its end, and the page shows it.
    nodes = type_command(page, "kubectl get nodes")
    expect(nodes.locator(".console-out")).to_contain_text("worker2")
    expect(page.locator("#run-panel")).to_have_attribute("data-run-id", re.compile(r"\d+"))
    refused = type_command(page, "kubectl cordon worker1")
    expect(refused.locator(".console-err")).to_contain_text(
        'Error from server (Forbidden): nodes "worker1" is forbidden: User "playground:viewer" cannot patch'
    )
    expect(page.locator("#side-console")).to_contain_text("commands that change it are refused")


def test_get_w_follows_the_run_as_it_plays(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    play_to_the_end(page)
    seek = page.locator("[data-player='seek']")
    seek.focus()
    seek.press("Home")  # back to before the first event
    expect(page.locator("[data-player='status']")).to_contain_text(re.compile(r"event 0/"))
    open_console(page)
    field = page.get_by_role("textbox", name="kubectl command")
    field.fill("kubectl get pods -w")
    field.press("Enter")
    entry = page.get_by_test_id("console-entry").last
    out = entry.locator(".console-out")
    expect(entry.locator("[data-console-watch]")).to_be_attached()
    expect(entry.locator(".console-watching")).to_be_visible()
    page.locator("[data-player='speed']").select_option("instant")
    page.get_by_role("button", name="Play").click()
    expect(out).to_contain_text(re.compile(r"web\s+0/1\s+Pending"))
    expect(out).to_contain_text(re.compile(r"web\s+1/1\s+Running"), timeout=15_000)
    field.click()
    field.press("Control+c")
    expect(out).to_contain_text("^C")
    expect(entry.locator(".console-watching")).to_have_count(0)


def test_the_keyboard_reaches_the_console_by_a_skip_link(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    expect(page.locator("html")).to_have_attribute("data-kubectl-console", "ready")
    page.keyboard.press("Tab")
    for _ in range(12):  # the header's links, then the skip link
        if page.evaluate("document.activeElement?.dataset?.skipConsole !== undefined"):
            break
        page.keyboard.press("Tab")
    expect(page.locator("[data-skip-console]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("textbox", name="kubectl command")).to_be_focused()
    expect(page.get_by_role("tab", name="kubectl")).to_have_attribute("aria-selected", "true")
