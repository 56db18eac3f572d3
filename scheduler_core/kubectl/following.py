"""The console's commands that go on as the run plays, as their kubectl goes on against a cluster:
`get -w` (a row per change), `drain` (kubectl's lines for each refused eviction, each pod evicted,
then "drained"), `rollout status` (the status line at each change of the Deployment until it is
rolled out). `followed(line, frames, after, upto)` gives the text the run's frames after+1..upto
add, and whether the command has ended."""

from typing import Any

from scheduler_core.api.workloads import Deployment
from scheduler_core.kubectl.console import rollout_status_text
from scheduler_core.kubectl.flags import CommandError, Flag, parse, split
from scheduler_core.kubectl.names import resolve, targets
from scheduler_core.kubectl.watching import Frames, watched_rows
from scheduler_core.store.cluster import Change, ChangeType
from scheduler_core.store.events import Event

DRAIN_REASONS = {"DrainWarning", "FailedEviction", "Drained", "DrainFailed"}  # controllers/drain.py's
ROLLED_OUT = "successfully rolled out"


def followed(line: str, frames: Frames, after: int, upto: int) -> tuple[str, bool]:
    words = split(line)
    verb = words[0] if words else ""
    if verb == "get":
        return watched_rows(line, frames, after, upto), False
    if verb == "drain":
        node = next((word for word in words[1:] if not word.startswith("-")), "")
        return _drain_lines(node, _items(frames, after, upto))
    if verb == "rollout" and words[1:2] == ["status"]:
        parsed = parse(words[2:], (Flag("watch", "w"), Flag("timeout"), Flag("revision")))
        wanted = targets(parsed.args)
        if len(wanted) != 1 or wanted[0].resource != resolve("deployments") or not wanted[0].name:
            raise CommandError("error: the console follows the rollout of one Deployment at a time")
        key = f"{parsed.value('namespace', 'default')}/{wanted[0].name}"
        return _rollout_lines(key, _items(frames, after, upto))
    raise CommandError(f"error: kubectl {verb} does not go on as the run plays")


def _items(frames: Frames, after: int, upto: int) -> list[Change[Any] | Event]:
    start = frames.boundaries[after - 1] if after > 0 else 0
    stop = frames.boundaries[min(upto, len(frames.boundaries)) - 1] if upto > 0 else 0
    return list(frames.journal[start:stop])


def _drain_lines(node: str, items: list[Change[Any] | Event]) -> tuple[str, bool]:
    lines: list[str] = []
    for item in items:
        if isinstance(item, Event):
            if item.reason in DRAIN_REASONS and (item.reason == "FailedEviction" or item.object == f"Node/{node}"):
                lines.append(item.message)
                if item.reason in ("Drained", "DrainFailed"):
                    return "".join(f"{line}\n" for line in lines), True
        elif _deleted_from(item, node):
            lines.append(f"pod/{item.old.metadata.name} evicted")  # type: ignore[union-attr]
    return "".join(f"{line}\n" for line in lines), False


def _deleted_from(change: Change[Any], node: str) -> bool:
    """A pod of the node gone: kubectl prints it evicted once its eviction has deleted it."""
    return (
        change.kind == "Pod"
        and change.type == ChangeType.DELETED
        and change.old is not None
        and change.old.spec.node_name == node
    )


def _rollout_lines(key: str, items: list[Change[Any] | Event]) -> tuple[str, bool]:
    lines: list[str] = []
    for item in items:
        if isinstance(item, Change) and item.kind == "Deployment" and item.key == key:
            deployment = item.new
            if not isinstance(deployment, Deployment):
                return "".join(lines) + f'error: deployments.apps "{key.split("/")[1]}" not found\n', True
            text = rollout_status_text(deployment)
            lines.append(text)
            if ROLLED_OUT in text:
                return "".join(lines), True
    return "".join(lines), False
