"""A scenario's imported workload is stored apart (models.StoredText), as its versions' is: on the
scenario's row, every edit's version bump and every node saved rewrote its 25 MiB (SQLite rewrites
a whole row), and every request that loaded the scenario read it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from playground import board, importing
from playground.models import MAX_WORKLOAD_BYTES, Scenario, ScenarioVersion, StoredText
from playground.scenarios import create_scenario, export_document, permalink_for, snapshot
from tests.web.kubectl_output import nodes_yaml, pods_yaml
from tests.web.test_preview_keys import reads_stored_text

TYPED = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: nginx}]\n"


@pytest.fixture(scope="module")
def imported() -> importing.Imported:
    return importing.import_cluster(nodes_yaml(20), pods_yaml(1500, 20))


def stored_column(scenario: Scenario) -> str:
    """The row's own workload column, as the database holds it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT workload_yaml FROM playground_scenario WHERE id = %s", [scenario.pk])
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_an_imported_workload_lives_apart_and_a_typed_one_on_the_row(imported):
    assert len(imported.workload_yaml) > MAX_WORKLOAD_BYTES
    big, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    typed, _ = create_scenario("Typed", workload_yaml=TYPED)
    assert stored_column(big) == "" and big.workload_text_id == StoredText.digest_of(imported.workload_yaml)
    assert stored_column(typed) == TYPED and typed.workload_text_id is None
    assert StoredText.objects.count() == 1  # the version shares the scenario's text
    assert Scenario.objects.get(pk=big.pk).workload_yaml == imported.workload_yaml
    assert snapshot(big).workload_text_id == big.workload_text_id
    assert big.workload_imported and not typed.workload_imported


@pytest.mark.django_db
def test_a_cordon_of_an_imported_cluster_never_reads_its_workload(imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    scenario = Scenario.objects.get(pk=scenario.pk)  # as a request loads it
    node = scenario.nodes.first()
    with CaptureQueriesContext(connection) as queries:
        cordoned = board.set_unschedulable(scenario, scenario.version, node.pk, True)
    assert reads_stored_text(queries) == []
    assert cordoned.edited_version.workload_text_id == scenario.workload_text_id
    assert ScenarioVersion.objects.get(pk=cordoned.edited_version.pk).document == export_document(cordoned)


@pytest.mark.django_db
def test_an_undone_edit_finds_its_version_again_by_the_workloads_digest(imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    first = snapshot(scenario)
    edited = imported.workload_yaml.replace("cpu: 250m", "cpu: 260m", 1)
    scenario = board.set_workload(scenario, scenario.version, edited)
    assert scenario.edited_version != first and StoredText.objects.count() == 2
    scenario = board.set_workload(scenario, scenario.version, imported.workload_yaml)
    assert scenario.edited_version == first  # the same content, the same permalink
    assert StoredText.objects.count() == 2
    # Its permalink names the workload by digest: the whole document is not what was hashed.
    assert first.permalink != permalink_for(scenario.slug, first.document, first.title)


@pytest.mark.django_db
def test_a_workload_shrunk_below_the_bound_goes_back_on_the_row(imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    scenario = board.set_workload(scenario, scenario.version, TYPED)
    assert stored_column(scenario) == TYPED and Scenario.objects.get(pk=scenario.pk).workload_text_id is None
    assert scenario.edited_version.stored_workload == TYPED and scenario.edited_version.workload_text_id is None


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_big_workloads_apart_and_back(imported):
    before = ("playground", "0006_version_text_stored_once")
    after = ("playground", "0007_scenario_workload_stored_apart")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old = executor.loader.project_state([before]).apps.get_model("playground", "Scenario")
        big = old.objects.create(title="big", workload_yaml=imported.workload_yaml, edit_secret_hash="x")
        small = old.objects.create(title="small", workload_yaml=TYPED, edit_secret_hash="x")
        executor = MigrationExecutor(connection)
        executor.migrate([after])
        then = executor.loader.project_state([after]).apps.get_model("playground", "Scenario")
        moved = then.objects.select_related("workload_text").get(pk=big.pk)
        assert stored_column(moved) == "" and moved.workload_text.text == imported.workload_yaml
        assert then.objects.get(pk=small.pk).workload_text is None
        assert stored_column(then.objects.get(pk=small.pk)) == TYPED
        executor = MigrationExecutor(connection)
        executor.migrate([before])
        back = executor.loader.project_state([before]).apps.get_model("playground", "Scenario")
        assert back.objects.get(pk=big.pk).workload_yaml == imported.workload_yaml
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_an_edit_sums_its_historys_kept_sizes_and_reads_no_text_to_count_it(imported):
    scenario, _ = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    node = scenario.nodes.first()
    with CaptureQueriesContext(connection) as queries:
        scenario = board.set_unschedulable(scenario, scenario.version, node.pk, True)
    assert not [query["sql"] for query in queries.captured_queries if "LENGTH(" in query["sql"].upper()]
    assert StoredText.objects.get().size == len(imported.workload_yaml)
    for version in ScenarioVersion.objects.filter(scenario=scenario):
        assert version.stored_size == len(version.stored_document) + len(version.stored_workload) > 0


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_sizes_of_the_rows_already_there(imported):
    create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    typed, _ = create_scenario("Typed", workload_yaml=TYPED)
    before = ("playground", "0007_scenario_workload_stored_apart")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        assert StoredText.objects.get().size == len(imported.workload_yaml)
        for version in ScenarioVersion.objects.all():
            assert version.stored_size == len(version.stored_document) + len(version.stored_workload) > 0
        assert ScenarioVersion.objects.filter(scenario=typed).get().stored_size > len(TYPED)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
