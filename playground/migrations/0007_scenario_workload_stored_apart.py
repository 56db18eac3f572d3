"""A scenario's workload over MAX_WORKLOAD_BYTES (an imported cluster's) is stored apart (StoredText),
as its versions' already are: on the row, every edit's version bump rewrote its 25 MiB (SQLite
rewrites a whole row on UPDATE). The column keeps its name; the model calls it stored_workload."""

import hashlib

import django.db.models.deletion
from django.db import migrations, models

APART_FROM = 256 * 1024  # models.MAX_WORKLOAD_BYTES when this was written


def workloads_apart(apps, schema_editor):  # type: ignore[no-untyped-def]
    Scenario = apps.get_model("playground", "Scenario")
    StoredText = apps.get_model("playground", "StoredText")
    for pk in Scenario.objects.values_list("pk", flat=True):
        text = Scenario.objects.filter(pk=pk).values_list("stored_workload", flat=True).get()
        if len(text) <= APART_FROM:
            continue
        digest = hashlib.sha256(text.encode()).hexdigest()
        StoredText.objects.get_or_create(digest=digest, defaults={"text": text})
        Scenario.objects.filter(pk=pk).update(stored_workload="", workload_text_id=digest)


def workloads_back(apps, schema_editor):  # type: ignore[no-untyped-def]
    Scenario = apps.get_model("playground", "Scenario")
    for scenario in Scenario.objects.exclude(workload_text=None).select_related("workload_text").iterator():
        Scenario.objects.filter(pk=scenario.pk).update(stored_workload=scenario.workload_text.text, workload_text=None)


class Migration(migrations.Migration):
    dependencies = [
        ("playground", "0006_version_text_stored_once"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name="scenario", old_name="workload_yaml", new_name="stored_workload"),
                migrations.AlterField(
                    model_name="scenario",
                    name="stored_workload",
                    field=models.TextField(blank=True, db_column="workload_yaml"),
                ),
            ],
            database_operations=[],
        ),
        migrations.AddField(
            model_name="scenario",
            name="workload_text",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="playground.storedtext",
            ),
        ),
        migrations.RunPython(workloads_apart, workloads_back, elidable=False),
    ]
