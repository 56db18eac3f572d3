"""Liveness of the two things every request depends on: the database (reads and writes) and the
channel layer."""

import asyncio
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder

CHANNEL_LAYER_TIMEOUT_SECONDS = 2.0


def _check_database_sync() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _check_database_writes_sync() -> None:
    """A write, rolled back: a database that answers reads but refuses writes (a read-only file,
    replica or transaction default, a full disk) fails it. One row of Django's migration table,
    which every database of the app has, rewritten as it is."""
    table = connection.ops.quote_name(MigrationRecorder.Migration._meta.db_table)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {table} SET applied = applied WHERE id = (SELECT MIN(id) FROM {table})")
        transaction.set_rollback(True)


async def check_database() -> str | None:
    """None when healthy (it answers and accepts a write), otherwise what failed."""
    try:
        await sync_to_async(_check_database_sync, thread_sensitive=True)()
    except Exception as error:  # any driver error means "unhealthy", whatever its class
        return f"{type(error).__name__}: {error}"
    try:
        await sync_to_async(_check_database_writes_sync, thread_sensitive=True)()
    except Exception as error:
        return f"refuses writes: {type(error).__name__}: {error}"
    return None


async def check_channel_layer() -> str | None:
    """Round-trips one message through the layer; None when it comes back."""
    layer = get_channel_layer()
    if layer is None:
        return "no channel layer configured"
    probe = {"type": "health.probe", "token": uuid.uuid4().hex}
    try:
        channel = await layer.new_channel()
        await layer.send(channel, probe)
        received = await asyncio.wait_for(layer.receive(channel), CHANNEL_LAYER_TIMEOUT_SECONDS)
    except TimeoutError:
        return f"no answer within {CHANNEL_LAYER_TIMEOUT_SECONDS:g}s"
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    if received != probe:
        return "the layer returned a different message"
    return None


async def check_all() -> dict[str, str | None]:
    database, channel_layer = await asyncio.gather(check_database(), check_channel_layer())
    return {"database": database, "channel_layer": channel_layer}
