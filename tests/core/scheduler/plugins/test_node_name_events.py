"""NodeName's registered events (nodename/node_name.go): only a node being added can help, and it
has no hint of its own (every such event queues the pod)."""

from scheduler_core.scheduler.cluster_events import (
    NODE_ADD,
    ActionType,
    ClusterEvent,
    EventResource,
    build_queueing_hint_map,
)
from scheduler_core.scheduler.plugins.node_name import NAME, NodeName


def test_registers_node_add_without_a_hint() -> None:
    registrations = NodeName().events_to_register()
    assert [(r.event, r.hint) for r in registrations] == [(NODE_ADD, None)]


def test_the_hint_map_also_gives_it_taint_updates() -> None:
    """Upstream's buildQueueingHintMap adds Node/UpdateNodeTaint to every plugin that registers
    Node/Add without it (kubernetes#109437)."""
    hints = build_queueing_hint_map({NAME: NodeName()})
    assert set(hints) == {NODE_ADD, ClusterEvent(EventResource.NODE, ActionType.UPDATE_NODE_TAINT)}
