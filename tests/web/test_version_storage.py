"""An imported cluster's workload is stored once (models.StoredText), not in every version its edits
make: a cordon adds its nodes to the history, not 25 MiB of pods; versions read back whole."""

import re

import pytest
from django.urls import reverse

from playground import board, importing, scenarios
from playground.models import ScenarioVersion, StoredText
from playground.scenarios import MAX_WORKLOAD_BYTES, InvalidEdit, create_scenario, export_document, fork, snapshot
from tests.web.kubectl_output import nodes_yaml, pods_yaml

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def imported() -> importing.Imported:
    return importing.import_cluster(nodes_yaml(20), pods_yaml(1500, 20))


def cordon_all(scenario, count: int):
    for node in list(scenario.nodes.filter(unschedulable=False))[:count]:
        scenario = board.set_unschedulable(scenario, scenario.version, node.pk, True)
    return scenario


def test_edits_of_an_imported_scenario_store_its_workload_once(imported):
    assert len(imported.workload_yaml) > MAX_WORKLOAD_BYTES
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    scenario = cordon_all(scenario, 5)
    versions = list(ScenarioVersion.objects.filter(scenario=scenario).order_by("number"))
    assert [version.number for version in versions] == [1, 2, 3, 4, 5, 6]
    assert StoredText.objects.count() == 1
    assert all(version.stored_workload == "" and version.workload_text_id for version in versions)
    assert all(len(version.stored_document) < len(imported.workload_yaml) / 10 for version in versions)
    last = ScenarioVersion.objects.get(pk=versions[-1].pk)  # read back from the database
    assert last.workload_yaml == imported.workload_yaml
    assert last.document == export_document(scenario)  # whole, as it was written
    assert last.cluster_document == last.document
    assert snapshot(scenario) == last  # the same content is the same version (compared by digest)


def test_a_stored_workloads_cluster_document_is_its_document_without_the_configuration(imported):
    config = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
    scenario, _ = create_scenario(
        "Configured", nodes=imported.nodes, workload_yaml=imported.workload_yaml, scheduler_config_yaml=config
    )
    version = ScenarioVersion.objects.get(pk=snapshot(scenario).pk)
    assert version.workload_text_id and version.document.endswith("---\n" + config)
    assert version.cluster_document == version.document[: -len("---\n" + config)]


def test_a_cordon_fits_where_a_second_copy_of_the_workload_would_not(imported, monkeypatch):
    """Each version once held the workload twice (in its document and on its own)."""
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    monkeypatch.setattr(scenarios, "MAX_HISTORY_BYTES", 2 * len(imported.workload_yaml))
    scenario = cordon_all(scenario, 15)
    assert scenario.version == 16
    edited = imported.workload_yaml.replace("cpu: 250m", "cpu: 260m", 1)
    with pytest.raises(InvalidEdit, match="history is full"):  # a second workload is counted in full
        board.set_workload(scenario, scenario.version, edited + edited)


def test_a_fork_shares_the_stored_workload_and_a_new_one_is_stored_once_more(imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    forked, _secret = fork(snapshot(scenario))
    assert snapshot(forked).workload_text_id == snapshot(scenario).workload_text_id
    edited = imported.workload_yaml.replace("cpu: 250m", "cpu: 260m", 1)
    assert edited != imported.workload_yaml
    scenario = board.set_workload(scenario, scenario.version, edited)
    assert StoredText.objects.count() == 2
    assert ScenarioVersion.objects.get(scenario=scenario, number=2).workload_yaml == edited


def test_a_typed_workload_stays_in_its_version(client):
    scenario, _ = create_scenario("Typed", workload_yaml="apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    version = snapshot(scenario)
    assert version.workload_text_id is None and version.stored_workload.startswith("apiVersion: v1")
    assert version.document == version.stored_document == export_document(scenario)
    assert StoredText.objects.count() == 0


def test_the_version_page_and_the_export_read_a_stored_workload(client, imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    version = snapshot(scenario)
    page = client.get(reverse("version", args=[version.permalink])).content.decode()
    assert imported.workload_yaml.splitlines()[0].split(", spec:")[0] in page
    whole = client.get(reverse("export", args=[scenario.slug]) + "?part=all").content.decode()
    assert whole == version.document


def test_a_version_page_shows_the_start_of_an_imported_workload_and_links_the_rest(client, imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    version = snapshot(scenario)
    lines = imported.workload_yaml.splitlines(keepends=True)
    for name in ("version", "embed"):
        page = client.get(reverse(name, args=[version.permalink])).content.decode()
        assert len(page) < len(imported.workload_yaml) / 4
        assert f"Its first 200 of {len(lines)} lines" in page
        shown, hidden = (re.search(r"name: ([\w.-]+),", lines[at]).group(1) for at in (199, 200))
        assert f"name: {shown}," in page and f"name: {hidden}," not in page
        assert f'href="/v/{version.permalink}/workload.yaml"' in page
    whole = client.get(reverse("version-workload", args=[version.permalink]))
    assert whole.content.decode() == imported.workload_yaml


def test_an_edit_neither_reads_back_the_stored_workload_nor_stores_it_twice(imported, django_assert_num_queries):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    edited_workload = imported.workload_yaml.replace("labels: {", "labels: {reviewed: 'yes', ", 1)
    edited = board.set_workload(scenario, scenario.version, edited_workload)  # 25 MiB at 50,000 pods
    assert StoredText.objects.count() == 2
    version = edited.edited_version
    with django_assert_num_queries(0):  # the board drawn in answer reads its document from memory
        assert version.workload_yaml == edited_workload
    again = board.set_unschedulable(edited, edited.version, edited.nodes.first().pk, True)
    assert StoredText.objects.count() == 2 and again.edited_version.workload_text_id == version.workload_text_id
    assert ScenarioVersion.objects.get(pk=again.edited_version.pk).workload_yaml == edited_workload
