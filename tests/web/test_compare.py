"""The compare page: two stored runs, or the current version under another scheduler configuration."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from playground import board, runs
from playground.models import Run
from playground.scenarios import create_scenario

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ZONED_NODES = [
    {
        "name": name,
        "labels": {"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zone},
        "taints": [],
        "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
    }
    for name, zone in (("node-a", "zone-a"), ("node-b", "zone-b"), ("node-c", "zone-c"))
]


def pod(name: str, cpu: str = "1") -> str:
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\n"
        f"spec: {{containers: [{{name: c, image: app, resources: {{requests: {{cpu: '{cpu}', memory: 1Gi}}}}}}]}}\n"
    )


THREE_PODS = "---\n".join([pod("one"), pod("two"), pod("three")])


def compare_url(scenario, **query: str) -> str:
    url = reverse("compare", args=[scenario.slug])
    return url + ("?" + "&".join(f"{key}={value}" for key, value in query.items()) if query else "")


def diff_rows(html: str) -> list[list[str]]:
    """The diff table's rows as cell texts (tags stripped)."""
    table = html.split('data-testid="diff"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr class=\"change-[a-z_]+\">(.*?)</tr>", table, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    return [[re.sub(r"<[^>]+>|\s+", " ", cell).strip() for cell in row] for row in cells]


def test_the_current_version_under_bin_packing_shows_which_pods_moved_onto_one_node(client):
    scenario, _ = create_scenario("pack", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    response = client.get(compare_url(scenario, config="bin-packing"))
    assert response.status_code == 200
    html = response.content.decode()
    # LeastAllocated spreads the three pods; MostAllocated stacks them where the first one went.
    assert diff_rows(html) == [
        ["default/three", "node-c", "node-b", "moved"],
        ["default/two", "node-a", "node-b", "moved"],
    ]
    assert "bin packing (MostAllocated)" in html
    assert "1 same node" in html and "2 moved" in html
    summary = html.split('class="summary-table"', 1)[1]
    assert '(DaemonSet pods aside)</th><td class="num">3</td><td class="num">1</td>' in summary
    assert 'width="75"' in html  # node-b's cpu bar in B: 3 of 4 cpus requested


def test_two_stored_runs_of_different_versions_are_compared_and_the_new_pod_is_only_in_b(client):
    scenario, _ = create_scenario("versions", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    first = runs.start_run(scenario, background=False)
    scenario = board.set_workload(scenario, scenario.version, THREE_PODS + "---\n" + pod("huge", cpu="16"))
    second = runs.start_run(scenario, background=False)
    assert first.version_id != second.version_id
    response = client.get(compare_url(scenario, a=str(first.pk), b=str(second.pk)))
    assert response.status_code == 200
    html = response.content.decode()
    assert diff_rows(html) == [["default/huge", "–", "Pending", "only in B"]]
    # The pending pod's reason is the scheduler's FailedScheduling message, verbatim.
    assert "0/3 nodes are available: 3 Insufficient cpu." in html
    assert f"Run {first.pk}" in html and f"Run {second.pk}" in html
    assert f'href="{reverse("scenario", args=[scenario.slug])}?run={second.pk}"' in html


def test_an_invalid_configuration_is_shown_with_its_document_field_and_line(client):
    scenario, _ = create_scenario("bad config", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    config = (
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
        "profiles:\n- schedulerName: default-scheduler\n  bogus: true\n"
    )
    response = client.get(reverse("compare", args=[scenario.slug]), {"config": "custom", "config_yaml": config})
    assert response.status_code == 422
    html = response.content.decode()
    problem = html.split('data-testid="problem-B"', 1)[1].split("</div>", 1)[0]
    assert "The scheduler configuration does not load." in problem
    assert "line 5:" in problem
    assert "KubeSchedulerConfiguration" in problem
    assert "<code>profiles[0].bogus</code>" in problem
    assert "unknown field &quot;profiles[0].bogus&quot;" in problem
    assert 'data-testid="diff"' not in html


def test_a_plugin_argument_the_scheduler_refuses_is_located_in_the_yaml(client):
    scenario, _ = create_scenario("bad args", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    config = (
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "profiles:\n"
        "- pluginConfig:\n"
        "  - name: NodeResourcesFit\n"
        "    args:\n"
        "      scoringStrategy:\n"
        "        type: FewestPods\n"
    )
    response = client.get(reverse("compare", args=[scenario.slug]), {"config": "custom", "config_yaml": config})
    assert response.status_code == 422
    problem = response.content.decode().split('data-testid="problem-B"', 1)[1].split("</div>", 1)[0]
    assert "line 8:" in problem
    assert "<code>pluginConfig[NodeResourcesFit].args.scoringStrategy.type</code>" in problem
    assert "Unsupported value: &quot;FewestPods&quot;" in problem


def test_an_unknown_plugin_is_located_by_its_name(client):
    scenario, _ = create_scenario("bogus", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    config = (
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "profiles:\n"
        "- plugins:\n"
        "    score:\n"
        "      enabled:\n"
        "      - {name: Bogus}\n"
    )
    response = client.get(reverse("compare", args=[scenario.slug]), {"config": "custom", "config_yaml": config})
    assert response.status_code == 422
    problem = response.content.decode().split('data-testid="problem-B"', 1)[1].split("</div>", 1)[0]
    assert "line 7:" in problem and "plugin &quot;Bogus&quot; does not exist" in problem


def test_invalid_yaml_gives_the_parsers_line_not_a_server_error(client):
    scenario, _ = create_scenario("yaml", workload_yaml=THREE_PODS)
    response = client.get(
        reverse("compare", args=[scenario.slug]), {"config": "custom", "config_yaml": "kind: [unclosed\nx: 1\n"}
    )
    assert response.status_code == 422
    assert "invalid YAML" in response.content.decode()


def test_a_run_of_another_scenario_is_not_found(client):
    mine, _ = create_scenario("mine", workload_yaml=THREE_PODS)
    theirs, _ = create_scenario("theirs", workload_yaml=THREE_PODS)
    their_run = runs.start_run(theirs, background=False)
    my_run = runs.start_run(mine, background=False)
    assert client.get(compare_url(mine, a=str(their_run.pk))).status_code == 404
    assert client.get(compare_url(mine, a=str(my_run.pk), b=str(their_run.pk))).status_code == 404
    assert client.get(compare_url(mine, a="nonsense")).status_code == 404
    assert client.get(compare_url(mine, a=str(my_run.pk))).status_code == 200


def test_a_view_only_link_can_compare_as_it_changes_nothing():
    scenario, _ = create_scenario("shared", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    run = runs.start_run(scenario, background=False)
    viewer = Client()  # no edit secret in this session
    response = viewer.get(compare_url(scenario, a=str(run.pk), config="spread-hard"))
    assert response.status_code == 200
    assert 'data-testid="diff"' not in response.content.decode()  # bare pods have no default constraints
    assert "Every pod is where it was" in response.content.decode()
    assert Run.objects.count() == 1  # comparing stores nothing


def test_without_a_choice_the_page_shows_the_form_with_the_run_as_a_and_computes_nothing(client):
    scenario, _ = create_scenario("form", workload_yaml=THREE_PODS)
    run = runs.start_run(scenario, background=False)
    html = client.get(compare_url(scenario, a=str(run.pk))).content.decode()
    assert f'<option value="{run.pk}" selected>' in html
    assert "Choose what A and B are, then Compare." in html
    assert 'hx-get="' in html and f'action="{reverse("compare", args=[scenario.slug])}"' in html


def test_htmx_gets_the_result_fragment_only(client):
    scenario, _ = create_scenario("fragment", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    response = client.get(compare_url(scenario, config="default"), headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="compare-result"')
    assert "<html" not in html


def test_the_run_panel_links_to_compare_and_flags_a_run_of_an_older_version(client):
    scenario, _ = create_scenario("panel", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    first = runs.start_run(scenario, background=False)
    page = client.get(reverse("scenario", args=[scenario.slug]) + f"?run={first.pk}").content.decode()
    compare = reverse("compare", args=[scenario.slug])
    assert f'href="{compare}?a={first.pk}"' in page
    assert 'data-testid="compare-previous"' not in page  # the first run has none before it
    assert '<span class="run-stale" data-player="stale" data-run-version="1" hidden>' in page  # not stale

    scenario = board.set_workload(scenario, scenario.version, THREE_PODS + "---\n" + pod("four"))
    second = runs.start_run(scenario, background=False)
    page = client.get(reverse("scenario", args=[scenario.slug]) + f"?run={second.pk}").content.decode()
    assert f'href="{compare}?a={first.pk}&amp;b={second.pk}"' in page  # older run as A, this one as B

    scenario = board.set_workload(scenario, scenario.version, THREE_PODS)  # back to v1's workload...
    scenario = board.set_workload(scenario, scenario.version, pod("solo"))  # ...then something new
    page = client.get(reverse("scenario", args=[scenario.slug]) + f"?run={second.pk}").content.decode()
    notice = page.split('data-player="stale"', 1)[1].split("</button>", 1)[0]
    assert notice.split(">", 1)[0].strip() == f'data-run-version="{second.version.number}"'  # shown: not hidden
    assert f"This run is of v{second.version.number}; the scenario is now v" in notice
    assert f'<span data-player="current-version">{scenario.version}</span>.' in notice
    assert 'form="run-start"' in page  # the re-run button submits the run form


def test_comparing_takes_from_the_runs_rate_limit_but_showing_the_form_does_not(client, settings):
    from playground.ratelimit import Limit

    settings.RATE_LIMITS = {"run": Limit(burst=1, per_minute=1, what="runs")}
    scenario, _ = create_scenario("limited", workload_yaml=THREE_PODS)
    for _ in range(3):
        assert client.get(compare_url(scenario)).status_code == 200
    assert client.get(compare_url(scenario, config="default")).status_code == 200
    limited = client.get(compare_url(scenario, config="default"))
    assert limited.status_code == 429
    assert "Retry-After" in limited
