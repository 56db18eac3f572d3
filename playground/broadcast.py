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
