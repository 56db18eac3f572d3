"""How run events travel to the page: compact JSON, in websocket messages of bounded size.

Daphne refuses to send a message over 1 MiB (autobahn's PayloadExceededError closes the socket
with 1011), and a page reconnecting to the same oversized first message never catches up. So every
message of run events, live or replayed, holds whole events up to MAX_MESSAGE_CHARS, and no single
event comes near it: a frame's changes are bounded where frames are made (run_frames.bounded). Each event
is encoded once; a message is those encodings joined.
"""

import json
from collections.abc import Iterable, Iterator
from typing import Any

MAX_MESSAGE_CHARS = 512 * 1024  # half of Daphne's limit: room for the envelope and a large event


def encode(value: Any) -> str:
    """JSON without the spaces Python puts after separators (about a tenth of a run's bytes)."""
    return json.dumps(value, separators=(",", ":"))


def encode_event(seq: int, payload: dict[str, Any]) -> str:
    return encode({"seq": seq, **payload})


def batches(encoded: Iterable[str], limit: int = MAX_MESSAGE_CHARS) -> Iterator[list[str]]:
    """Consecutive events, grouped so that each group's characters stay within `limit` (an event
    longer than that on its own goes alone)."""
    group: list[str] = []
    size = 0
    for event in encoded:
        if group and size + len(event) + 1 > limit:
            yield group
            group, size = [], 0
        group.append(event)
        size += len(event) + 1
    if group:
        yield group


def run_events_message(run_id: int, encoded: list[str], **fields: Any) -> str:
    """{"type": "run.events", "run": id, ...fields, "events": [...]}, from already encoded events."""
    head = encode({"type": "run.events", "run": run_id, **fields})
    return head[:-1] + ',"events":[' + ",".join(encoded) + "]}"
