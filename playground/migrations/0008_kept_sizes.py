"""A version's and a stored text's sizes are kept on their rows: the bounded history summed them on
every edit with LENGTH(), which on SQLite reads each value whole (4 MiB a version of a 5,000-node
board, 25 MiB an imported workload), so an edit took longer the longer the history."""

from django.db import migrations, models
from django.db.models.functions import Length


def sizes_of_existing_rows(apps, schema_editor):  # type: ignore[no-untyped-def]
    ScenarioVersion = apps.get_model("playground", "ScenarioVersion")
    StoredText = apps.get_model("playground", "StoredText")
    ScenarioVersion.objects.update(
        stored_size=Length("stored_document") + Length("stored_workload") + Length("scheduler_config_yaml")
    )
    StoredText.objects.update(size=Length("text"))


class Migration(migrations.Migration):
    dependencies = [
        ("playground", "0007_scenario_workload_stored_apart"),
    ]

    operations = [
        migrations.AddField(
            model_name="scenarioversion",
            name="stored_size",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="storedtext",
            name="size",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.RunPython(sizes_of_existing_rows, migrations.RunPython.noop, elidable=False),
    ]
