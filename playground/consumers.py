import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from playground.broadcast import scenario_group


class ScenarioConsumer(AsyncWebsocketConsumer):
    """A viewer of one scenario: receives every event broadcast to the scenario's group."""

    group: str

    async def connect(self) -> None:
        self.group = scenario_group(self.scope["url_route"]["kwargs"]["slug"])
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def scenario_event(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"seq": message["seq"], "payload": message["payload"]}))

    async def scenario_changed(self, message: dict[str, Any]) -> None:
        """Someone saved an edit: viewers re-fetch the board (the HTTP partial stays the one renderer)."""
        await self.send(text_data=json.dumps({"type": "changed", "version": message["version"]}))
