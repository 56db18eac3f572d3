"""A version's preview key is remembered by the version (playground/preview_keys.py): the board of
an imported cluster no longer reads a 25 MiB workload from the database and hashes 30 MiB for each
preview it looks up, its own and the one before it (a cordon's and a save's answer)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from playground import board, importing, preview, preview_keys
from playground.models import ScenarioVersion
from playground.scenarios import create_scenario, snapshot
from playground.views.common import _placement
from tests.web.kubectl_output import nodes_yaml, pods_yaml

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_keys():
    preview_keys.forget_all()
    yield
    preview_keys.forget_all()


@pytest.fixture(scope="module")
def imported() -> importing.Imported:
    return importing.import_cluster(nodes_yaml(20), pods_yaml(1500, 20))


def reads_stored_text(queries: CaptureQueriesContext) -> list[str]:
    """The queries that read a stored text itself (its kept size is not the text)."""
    return [query["sql"] for query in queries.captured_queries if '"playground_storedtext"."text"' in query["sql"]]


def test_a_versions_key_is_its_cluster_documents_and_is_read_once(django_assert_num_queries):
    scenario, _ = create_scenario("Typed", workload_yaml="apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    version = snapshot(scenario)
    key = preview_keys.of_version(version)
    document = version.cluster_document
    assert key == preview_keys.DocumentKey(preview.document_key(document), len(document))
    bare = ScenarioVersion.objects.only("pk", "permalink").get(pk=version.pk)
    with django_assert_num_queries(0):  # its document is not loaded again
        assert preview_keys.of_version(bare) == key


def test_an_id_with_another_permalink_is_another_version():
    scenario, _ = create_scenario("Typed", workload_yaml="apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    version = snapshot(scenario)
    preview_keys.of_version(version)
    assert preview_keys.known(version.pk, version.permalink) is not None
    assert preview_keys.known(version.pk, "another-one") is None  # an id reused after a rollback


def test_a_cordons_board_reads_no_stored_workload_once_the_versions_are_known(imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    before = snapshot(scenario)
    _placement(scenario, before)  # as the page showed it: its key is known from now on
    node = scenario.nodes.filter(unschedulable=False).first()
    scenario = board.set_unschedulable(scenario, scenario.version, node.pk, True)
    after = snapshot(scenario)
    assert after.pk != before.pk and after.workload_text_id == before.workload_text_id  # the same workload
    after = ScenarioVersion.objects.defer("nodes").get(pk=after.pk)  # as a board reads it
    with CaptureQueriesContext(connection) as queries:
        _placement(scenario, after)  # computes (or starts) the new preview: its own document, once
        _placement(scenario, after)  # then its key is known too
    assert len(reads_stored_text(queries)) == 1
    with CaptureQueriesContext(connection) as queries:
        _placement(scenario, after)
    assert reads_stored_text(queries) == []


def test_a_workload_stored_apart_is_keyed_by_its_digest_without_being_read(imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    version = ScenarioVersion.objects.defer("nodes").get(pk=snapshot(scenario).pk)
    with CaptureQueriesContext(connection) as queries:
        key = preview_keys.of_version(version)
    assert reads_stored_text(queries) == []
    assert key.length == len(version.cluster_document)  # the whole document's, read here to check
    assert key.key == preview_keys.key_of_parts(version.stored_document, version.workload_text_id)
    assert key.key != preview.document_key(version.cluster_document)  # a key of its own kind

    other, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml + "# mine\n")
    assert preview_keys.of_version(snapshot(other)).key != key.key  # another workload, another key
