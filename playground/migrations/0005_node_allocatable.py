from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("playground", "0004_run_linked"),
    ]

    operations = [
        migrations.AddField(
            model_name="node",
            name="allocatable",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
