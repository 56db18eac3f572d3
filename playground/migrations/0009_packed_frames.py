"""A run's frames are stored packed (playground/packed_frames.py): 40-60 bytes instead of about 300
of JSON a frame. Rows already stored keep their JSON, read as it is: on SQLite the table is remade
with the column's values copied as they are (text); on PostgreSQL the jsonb column becomes bytea
holding each value's UTF-8 text (a cast from jsonb to bytea does not exist)."""

import json

from django.db import migrations

import playground.packed_frames

CHUNK = 10_000


def to_bytes(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE playground_runevent ALTER COLUMN payload TYPE bytea USING convert_to(payload::text, 'UTF8')"
        )
        return
    model = apps.get_model("playground", "RunEvent")
    old = model._meta.get_field("payload")
    new = playground.packed_frames.PackedFrameField()
    new.set_attributes_from_name("payload")
    new.model = model
    schema_editor.alter_field(model, old, new)


def to_json(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Going back to 0008: every packed frame is written back as its JSON, then the column's type."""
    connection = schema_editor.connection
    postgres = connection.vendor == "postgresql"
    last = 0
    while True:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, payload FROM playground_runevent WHERE id > %s ORDER BY id LIMIT %s", [last, CHUNK]
            )
            rows = cursor.fetchall()
            if not rows:
                break
            last = rows[-1][0]
            for pk, stored in rows:
                text = json.dumps(playground.packed_frames.unpack(stored), separators=(",", ":"))
                value = text.encode() if postgres else text
                cursor.execute("UPDATE playground_runevent SET payload = %s WHERE id = %s", [value, pk])
    if postgres:
        schema_editor.execute(
            "ALTER TABLE playground_runevent ALTER COLUMN payload TYPE jsonb USING convert_from(payload, 'UTF8')::jsonb"
        )
        return
    # The state this runs in is 0008's (the database operation changes no state): payload is the
    # JSONField there, and the column holds the packed field's type.
    model = apps.get_model("playground", "RunEvent")
    packed = playground.packed_frames.PackedFrameField()
    packed.set_attributes_from_name("payload")
    packed.model = model
    schema_editor.alter_field(model, packed, model._meta.get_field("payload"))


class Migration(migrations.Migration):
    dependencies = [
        ("playground", "0008_kept_sizes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="runevent",
                    name="payload",
                    field=playground.packed_frames.PackedFrameField(),
                ),
            ],
            database_operations=[migrations.RunPython(to_bytes, to_json, elidable=False)],
        ),
    ]
