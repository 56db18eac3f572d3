"""Every group_send of the app lives here, so message shapes cannot drift apart."""

from typing import Any

from channels.layers import get_channel_layer


def scenario_group(slug: str) -> str:
    """One channel-layer group per scenario (group names allow [a-zA-Z0-9_.-])."""
    return f"scenario.{slug}"


async def send_scenario_event(slug: str, seq: int, payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is always configured in settings"
    await layer.group_send(scenario_group(slug), {"type": "scenario.event", "seq": seq, "payload": payload})


def notify_scenario_changed(slug: str, version: int) -> None:
    """Tell every open viewer of the scenario that it changed (they re-fetch the board)."""
    from asgiref.sync import async_to_sync

    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(scenario_group(slug), {"type": "scenario.changed", "version": version})


def send_run_batch(slug: str, run_id: int, events: list[dict[str, Any]]) -> None:
    """A batch of stored run events, in order (batched: the in-memory layer drops a channel's 101st message)."""
    from asgiref.sync import async_to_sync

    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "run.events", "run": run_id, "events": events}
    async_to_sync(layer.group_send)(scenario_group(slug), message)


def send_run_status(slug: str, run_id: int, status: str, error: str = "") -> None:
    from asgiref.sync import async_to_sync

    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "run.status", "run": run_id, "status": status, "error": error}
    async_to_sync(layer.group_send)(scenario_group(slug), message)
