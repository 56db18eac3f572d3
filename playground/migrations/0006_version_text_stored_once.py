"""An imported cluster's workload is stored once (StoredText), not in every version. The two text
columns keep their names and their rows: only the model's names for them change (stored_document,
stored_workload), so that `document` and `workload_yaml` can be read whichever way a version is
stored. Versions saved before keep their whole texts, as they were."""

import django.db.models.deletion
from django.db import migrations, models


def whole_texts_back(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Going back to 0005: a version whose workload is stored apart gets its whole texts again."""
    ScenarioVersion = apps.get_model("playground", "ScenarioVersion")
    for version in ScenarioVersion.objects.exclude(workload_text=None).select_related("workload_text").iterator():
        text = version.workload_text.text
        config = version.scheduler_config_yaml.strip()
        version.stored_document += text.strip() + "\n" + ("---\n" + config + "\n" if config else "")
        version.stored_workload = text
        version.save(update_fields=["stored_document", "stored_workload"])


class Migration(migrations.Migration):
    dependencies = [
        ("playground", "0005_node_allocatable"),
    ]

    operations = [
        migrations.CreateModel(
            name="StoredText",
            fields=[
                ("digest", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("text", models.TextField()),
            ],
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name="scenarioversion", old_name="document", new_name="stored_document"),
                migrations.AlterField(
                    model_name="scenarioversion",
                    name="stored_document",
                    field=models.TextField(db_column="document"),
                ),
                migrations.RenameField(
                    model_name="scenarioversion", old_name="workload_yaml", new_name="stored_workload"
                ),
                migrations.AlterField(
                    model_name="scenarioversion",
                    name="stored_workload",
                    field=models.TextField(blank=True, db_column="workload_yaml"),
                ),
            ],
            database_operations=[],
        ),
        migrations.AddField(
            model_name="scenarioversion",
            name="workload_text",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="playground.storedtext",
            ),
        ),
        # Last, so that going back runs it first, while workload_text is still there.
        migrations.RunPython(migrations.RunPython.noop, whole_texts_back, elidable=False),
    ]
