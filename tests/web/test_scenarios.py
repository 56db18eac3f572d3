import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape

from playground.models import Scenario, ScenarioVersion
from playground.scenarios import create_scenario

BAD_CPU = (
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
    "    resources: {requests: {cpu: lots}}\n"
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def editable(client):
    """A scenario the test client may edit (its session holds the edit secret)."""
    response = client.post(reverse("new-scenario"))
    assert response.status_code == 302
    scenario = Scenario.objects.get()
    return scenario


def node(scenario, name="worker1"):
    return scenario.nodes.get(name=name)


def post_board(client, scenario, url, **data):
    data.setdefault("version", scenario.version)
    return client.post(url, data, headers=HTMX)


def test_a_new_scenario_has_three_workers_and_a_first_version(client, editable):
    assert [n.name for n in editable.nodes.all()] == ["worker1", "worker2", "worker3"]
    assert editable.version == 1
    assert editable.versions.count() == 1
    page = client.get(reverse("scenario", args=[editable.slug]))
    assert page.status_code == 200
    assert b"worker1" in page.content
    assert b"Edit link" in page.content


def test_adding_a_taint_saves_a_new_version_with_its_own_permalink(client, editable):
    target = node(editable)
    url = reverse("node-action", args=[editable.slug, target.pk, "taint"])
    response = post_board(client, editable, url, key="dedicated", value="gpu", effect="NoSchedule")
    assert response.status_code == 200
    assert b"dedicated=gpu:NoSchedule" in response.content
    assert b'id="board"' in response.content and b"<html" not in response.content  # the board partial
    editable.refresh_from_db()
    assert editable.version == 2
    assert node(editable).taints == [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]
    first, second = ScenarioVersion.objects.order_by("number")
    assert first.permalink != second.permalink
    assert "dedicated" not in first.document  # the old permalink still shows exactly the old version
    assert "dedicated" in second.document


def test_a_stale_edit_is_refused_with_the_current_state(client, editable):
    target = node(editable)
    url = reverse("node-action", args=[editable.slug, target.pk, "label"])
    assert post_board(client, editable, url, key="disktype", value="ssd").status_code == 200
    stale = client.post(url, {"version": 1, "key": "zone", "value": "a"}, headers=HTMX)
    assert stale.status_code == 409
    assert b"Someone changed this scenario meanwhile" in stale.content
    assert b"disktype=ssd" in stale.content  # the current state comes back
    assert "zone" not in node(editable).labels


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("<script>alert(1)</script>", "x", "invalid label key"),
        ("app", "<b>bold</b>", "invalid label value"),
        ("a" * 64, "x", "no more than 63 characters"),
    ],
)
def test_hostile_or_invalid_labels_are_refused_and_nothing_changes(client, editable, key, value, expected):
    target = node(editable)
    url = reverse("node-action", args=[editable.slug, target.pk, "label"])
    response = post_board(client, editable, url, key=key, value=value)
    assert response.status_code == 422
    assert expected.encode() in response.content
    assert b"<script>alert(1)</script>" not in response.content  # escaped, never echoed raw
    editable.refresh_from_db()
    assert editable.version == 1


def test_viewers_without_the_edit_secret_cannot_change_a_scenario(client, editable):
    from django.test import Client

    stranger = Client()
    target = node(editable)
    url = reverse("node-action", args=[editable.slug, target.pk, "cordon"])
    response = stranger.post(url, {"version": editable.version}, headers=HTMX)
    assert response.status_code == 403
    assert b"view link" in response.content
    assert not node(editable).unschedulable


def test_the_edit_link_grants_editing_in_another_browser(client, editable):
    from django.test import Client

    secret = client.session[f"edit:{editable.slug}"]
    other = Client()
    claimed = other.post(reverse("claim-edit", args=[editable.slug]), {"key": secret})
    assert claimed.status_code == 303 and claimed["Location"] == reverse("scenario", args=[editable.slug])
    target = node(editable)
    url = reverse("node-action", args=[editable.slug, target.pk, "cordon"])
    assert other.post(url, {"version": editable.version}, headers=HTMX).status_code == 200
    assert node(editable).unschedulable
    assert Client().post(reverse("claim-edit", args=[editable.slug]), {"key": "wrong"}).status_code == 403


def test_the_edit_secret_is_stored_hashed(editable, client):
    secret = client.session[f"edit:{editable.slug}"]
    assert secret not in editable.edit_secret_hash
    assert editable.check_edit_secret(secret)


def test_invalid_workload_yaml_is_refused_with_its_line_and_the_old_workload_kept(client, editable):
    url = reverse("save-workload", args=[editable.slug])
    bad = BAD_CPU
    response = post_board(client, editable, url, workload=bad)
    assert response.status_code == 422
    assert b"line 7" in response.content
    assert b"spec.containers[0].resources.requests.cpu" in response.content
    editable.refresh_from_db()
    assert editable.workload_yaml == ""


def test_a_valid_workload_places_its_pods_on_the_board(client, editable):
    url = reverse("save-workload", args=[editable.slug])
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  nodeName: worker2\n"
        "  containers: [{name: c, image: nginx}]\n"
    )
    response = post_board(client, editable, url, workload=pod)
    assert response.status_code == 200
    assert re.search(rb'class="pod phase-Pending hue-\d+" data-pod="default/web', response.content)


def test_validate_endpoint_reports_document_field_and_line(client):
    text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}], nodeSelecter: {}}\n"
    result = client.post(reverse("validate"), {"yaml": text}).json()
    assert result["ok"] is False
    (problem,) = result["problems"]
    assert problem == {
        "message": 'unknown field "spec.nodeSelecter"',
        "line": 4,
        "document": "Pod default/p",
        "path": "spec.nodeSelecter",
    }
    assert client.post(
        reverse("validate"), {"yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\n"}
    ).json() == {
        "ok": True,
        "problems": [],
    }


def test_huge_yaml_is_refused_quickly(client):
    result = client.post(reverse("validate"), {"yaml": "a: b\n" * 100_000}).json()
    assert result["ok"] is False
    assert "larger than" in result["problems"][0]["message"]


def test_the_editor_of_an_imported_workload_checks_it_against_the_import_bound(client, editable):
    from playground.scenarios import MAX_WORKLOAD_BYTES

    pod = "--- {{apiVersion: v1, kind: Pod, metadata: {{name: p{}}}, spec: {{containers: [{{name: c, image: i}}]}}}}\n"
    pods = "".join(pod.format(index) for index in range(4000))
    assert len(pods) > MAX_WORKLOAD_BYTES
    url = reverse("validate") + f"?scenario={editable.slug}"
    typed = client.post(url, {"yaml": pods}).json()
    assert typed["ok"] is False and "larger than 256 KiB" in typed["problems"][0]["message"]  # typed: 256 KiB
    editable.workload_yaml = pods  # as an import leaves it
    editable.save()
    imported = client.post(url, {"yaml": pods + pod.format("new")}).json()
    assert imported == {"ok": True, "problems": []}
    page = client.get(reverse("scenario", args=[editable.slug])).content.decode()
    assert f'data-validate-url="{reverse("validate")}?scenario={editable.slug}"' in page


def test_forking_a_version_makes_an_independent_scenario_that_remembers_its_origin(client, editable):
    version = editable.versions.get()
    response = client.post(reverse("fork-version", args=[version.permalink]))
    assert response.status_code == 302
    fork = Scenario.objects.exclude(pk=editable.pk).get()
    assert fork.forked_from == version
    assert fork.title == f"Fork of {editable.title}"
    assert [n.name for n in fork.nodes.all()] == ["worker1", "worker2", "worker3"]
    assert fork.slug != editable.slug


def test_permalink_and_embed_pages_show_the_version_read_only(client, editable):
    version = editable.versions.get()
    page = client.get(reverse("version", args=[version.permalink]))
    assert page.status_code == 200
    assert b"Fork this version" in page.content
    embedded = client.get(reverse("embed", args=[version.permalink]))
    assert embedded.status_code == 200
    assert "X-Frame-Options" not in embedded.headers  # embeddable in docs and wikis
    assert client.get(reverse("scenario", args=[editable.slug])).headers["X-Frame-Options"] == "DENY"


def test_export_is_one_yaml_file_the_engine_accepts(client, editable):
    from scheduler_core.api.manifests import load_manifests

    text = client.get(reverse("export", args=[editable.slug])).content.decode()
    kinds = [m.kind for m in load_manifests(text)]
    assert kinds == ["Node", "Node", "Node"]


def test_template_adds_nodes_per_zone(client, editable):
    url = reverse("add-nodes-template", args=[editable.slug])
    response = post_board(client, editable, url, zones="a,b,c", per_zone=2, cpu="2", memory="8Gi", pods="50")
    assert response.status_code == 200
    zoned = editable.nodes.exclude(labels__has_key="topology.kubernetes.io/zone").count()
    assert editable.nodes.count() == 9
    assert zoned == 3


def test_a_template_adds_a_thousand_nodes_at_once_with_free_names(client, editable):
    url = reverse("add-nodes-template", args=[editable.slug])
    post_board(client, editable, url, zones="a", per_zone=1, cpu="2", memory="8Gi", pods="50")  # node-a-1 taken
    editable.refresh_from_db()
    response = post_board(client, editable, url, zones="a,b", per_zone=500, cpu="4", memory="16Gi", pods="110")
    assert response.status_code == 200
    names = list(editable.nodes.values_list("name", flat=True))
    assert len(names) == 3 + 1 + 1000 and len(set(names)) == len(names)
    assert "node-a-1-2" in names and "node-b-500" in names  # a taken name gets a suffix, as one node does
    positions = list(editable.nodes.values_list("position", flat=True))
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    editable.refresh_from_db()
    refused = post_board(client, editable, url, zones="a,b", per_zone=501, cpu="4", memory="16Gi", pods="110")
    assert "a template adds at most 1000 nodes at once" in refused.content.decode()


def test_gallery_loads_idempotently_and_can_be_opened_as_a_copy(client):
    call_command("load_gallery")
    call_command("load_gallery")
    gallery = Scenario.objects.exclude(gallery_key="")
    assert gallery.count() >= 3
    assert b"Node affinity with weights" in client.get("/").content
    response = client.post(reverse("use-gallery", args=["010-node-affinity"]))
    assert response.status_code == 302
    copy = Scenario.objects.filter(gallery_key="").get()
    assert copy.title == "Node affinity with weights"
    page = client.get(reverse("scenario", args=[copy.slug]))
    assert b"nginx-node-affinity-test" in page.content


def test_scenario_creation_refuses_invalid_nodes():
    from playground.scenarios import InvalidEdit

    with pytest.raises(InvalidEdit):
        create_scenario("bad", nodes=[{"name": "Not_A_Name", "labels": {}, "taints": [], "capacity": {}}])


def test_table_view_lists_nodes_and_searches_names_labels_and_taints(client, editable):
    url = reverse("add-nodes-template", args=[editable.slug])
    post_board(client, editable, url, zones="a,b", per_zone=3, cpu="2", memory="8Gi", pods="50")
    board = reverse("board", args=[editable.slug])
    table = client.get(board, {"view": "table"}).content.decode()
    assert table.count('<tr class="" data-node=') == 9
    found = client.get(board, {"view": "table", "q": "zone=b"}).content.decode()
    assert found.count("data-node-name=") == 3
    assert "matching “zone=b”" in found


def test_nodes_group_by_region_then_zone(client, editable):
    for node, (region, zone) in zip(editable.nodes.all(), [("r1", "a"), ("r1", "b"), ("r2", "a")], strict=True):
        node.labels |= {"topology.kubernetes.io/region": region, "topology.kubernetes.io/zone": zone}
        node.save()
    board = client.get(
        reverse("board", args=[editable.slug]),
        {"group": "topology.kubernetes.io/region", "then": "topology.kubernetes.io/zone"},
    ).content.decode()
    titles = [line.strip() for line in board.splitlines() if 'class="group-title"' in line]
    assert [t.split(">")[1].split("<")[0] for t in titles] == [
        "topology.kubernetes.io/region = r1 › topology.kubernetes.io/zone = a",
        "topology.kubernetes.io/region = r1 › topology.kubernetes.io/zone = b",
        "topology.kubernetes.io/region = r2 › topology.kubernetes.io/zone = a",
    ]


def test_extended_resources_can_be_added_to_a_node(client, editable):
    target = node(editable)
    url = reverse("node-action", args=[editable.slug, target.pk, "capacity"])
    response = post_board(
        client, editable, url, cpu="4", memory="16Gi", pods="110", extended_name="nvidia.com/gpu", extended_value="2"
    )
    assert response.status_code == 200
    assert node(editable).capacity["nvidia.com/gpu"] == "2"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("example.com/<img src=x onerror=alert(1)>", "name part must consist of alphanumeric characters"),
        ("gpu", "must be a standard resource type or fully qualified"),
        ("kubernetes.io/gpu", "doesn't follow extended resource name standard"),
    ],
)
def test_an_extended_resource_name_kubernetes_refuses_is_refused_naming_the_field(client, editable, name, says):
    target = node(editable)
    url = reverse("node-action", args=[editable.slug, target.pk, "capacity"])
    response = post_board(client, editable, url, extended_name=name, extended_value="2")
    assert response.status_code == 422
    text = response.content.decode()
    assert escape(f"status.capacity.{name}") in text and escape(says) in text
    assert "<img" not in text  # escaped, never markup
    assert name not in node(editable).capacity
    editable.refresh_from_db()
    assert editable.version == 1


def test_stored_nodes_hold_the_current_ones_only_with_the_same_values_in_the_same_order():
    from playground.scenarios import _same_nodes

    def node(name: str, labels: dict, taints: list | None = None, **extra) -> dict:
        return {"name": name, "labels": labels, "taints": taints or [], "capacity": {"cpu": "4", "pods": "110"}} | extra

    taint = {"key": "gpu", "value": "true", "effect": "NoSchedule"}
    stored = [node("a", {"zone": "a", "rack": "1"}, [taint]), node("b", {}, allocatable={"cpu": "3"})]
    assert _same_nodes(
        stored, [node("a", {"zone": "a", "rack": "1"}, [dict(taint)]), node("b", {}, allocatable={"cpu": "3"})]
    )
    assert not _same_nodes(stored, [node("a", {"rack": "1", "zone": "a"}, [taint]), stored[1]])  # label order
    assert not _same_nodes(stored, [node("a", {"zone": "a", "rack": "1"}, [dict(reversed(taint.items()))]), stored[1]])
    assert not _same_nodes(stored, [node("a", {"zone": "b", "rack": "1"}, [taint]), stored[1]])
    assert not _same_nodes(stored, [stored[1], stored[0]])  # node order
    assert not _same_nodes(stored, stored[:1])
    assert not _same_nodes(stored, [stored[0], node("b", {})])  # allocatable gone
