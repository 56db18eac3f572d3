"""DynamicResources' EventsToRegister and QueueingHints, after upstream's dynamicresources_test.go
(Test_isSchedulableAfterClaimChange, Test_isSchedulableAfterPodChange). The engine has no
ResourceClaim objects: claims are plain manifests served by a `resource_claims` lookup on the handle,
and a pod's resource claim entries name their claims directly (no template-generated claims, hence
no owner check: upstream's "skip-wrong-claim" case is replaced by a claim being deleted)."""

from collections.abc import Mapping
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import ActionType, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.dynamic_resources import DynamicResources
from tests.core.scheduler.plugins.test_volume_binding import pod

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def resource_claim(name: str, uid: str, *, allocated: bool = False, **extra: Any) -> dict[str, Any]:
    status: dict[str, Any] = {"allocation": {"devices": {"results": []}}} if allocated else {}
    metadata = {"namespace": "default", "name": name, "uid": uid, **extra}
    return {"metadata": metadata, "spec": {"devices": {"requests": []}}, "status": status}


def with_claims(*names: str, uid: str = "pod-uid") -> Pod:
    p = pod(name="pod-dra")
    return replace(p, metadata=replace(p.metadata, uid=uid), spec=replace(p.spec, resource_claims=names))


def plugin_with(*claims: Mapping[str, Any]) -> DynamicResources:
    stored = {(c["metadata"]["namespace"], c["metadata"]["name"]): c for c in claims}
    return DynamicResources({}, SimpleNamespace(resource_claims=lambda ns, name: stored.get((ns, name))))


PENDING = resource_claim("my-claim", "uid-1")
ALLOCATED = resource_claim("my-claim", "uid-1", allocated=True)
OTHER_ALLOCATED = resource_claim("other-claim", "uid-2", allocated=True)
DEALLOCATED_OTHER = resource_claim("other-claim", "uid-2")
UNRELATED = resource_claim("my-claim-foo", "uid-1123", allocated=True)
WITH_FINALIZER = resource_claim("my-claim", "uid-1", finalizers=["foo"])
BEING_DELETED = resource_claim("my-claim", "uid-1", deletionTimestamp="2025-01-01T00:00:00Z")


def test_events_to_register_with_queueing_hints_on():
    registered = [(r.event.resource, r.event.action, r.hint is not None) for r in plugin_with().events_to_register()]
    add_or_update = ActionType.ADD | ActionType.UPDATE
    assert registered == [
        (EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL | ActionType.UPDATE_NODE_ALLOCATABLE, False),
        (EventResource.RESOURCE_CLAIM, add_or_update, True),
        (EventResource.POD, ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM, True),
        (EventResource.DEVICE_CLASS, add_or_update, False),
        (EventResource.RESOURCE_SLICE, add_or_update, False),
    ]


@pytest.mark.parametrize(
    ("case", "stored", "old", "new", "want"),
    [
        ("skip deletes (the pod's claim is gone)", [], ALLOCATED, None, SKIP),
        ("wrong new object", [], None, "not-a-claim", QUEUE),
        ("the pod's claim is being deleted", [BEING_DELETED], None, BEING_DELETED, SKIP),
        ("an unrelated claim", [ALLOCATED], None, UNRELATED, SKIP),
        ("the pod's claim is created", [PENDING], None, PENDING, QUEUE),
        ("wrong old object", [PENDING], "not-a-claim", PENDING, QUEUE),
        ("a finalizer added: status unchanged", [PENDING], PENDING, WITH_FINALIZER, SKIP),
        ("the pod's claim got allocated", [PENDING], PENDING, ALLOCATED, QUEUE),
        ("another claim got deallocated", [PENDING, OTHER_ALLOCATED], OTHER_ALLOCATED, DEALLOCATED_OTHER, QUEUE),
    ],
)
def test_is_schedulable_after_claim_change(case: str, stored: list[Any], old: Any, new: Any, want: QueueingHint):
    assert plugin_with(*stored).is_schedulable_after_claim_change(with_claims("my-claim"), old, new) is want


def test_without_a_claim_lookup_no_claim_exists():
    """The engine itself serves no claims: a pod that uses one is never requeued by a claim event."""
    plugin = DynamicResources({}, SimpleNamespace())
    assert plugin.is_schedulable_after_claim_change(with_claims("my-claim"), None, PENDING) is SKIP


@pytest.mark.parametrize(
    ("case", "stored", "p", "new", "want"),
    [
        ("wrong new object", [PENDING], with_claims("my-claim"), "not-a-pod", QUEUE),
        ("complete", [PENDING], with_claims("my-claim"), with_claims("my-claim"), QUEUE),
        ("another pod", [PENDING], with_claims("my-claim", uid="pod-uid2"), with_claims("my-claim"), SKIP),
        ("missing claim", [], with_claims("my-claim"), with_claims("my-claim"), SKIP),
        (
            "incomplete: one of two claims exists",
            [PENDING],
            with_claims("my-claim", "my-claim-2"),
            with_claims("my-claim", "my-claim-2"),
            SKIP,
        ),
    ],
)
def test_is_schedulable_after_pod_change(case: str, stored: list[Any], p: Pod, new: Any, want: QueueingHint):
    assert plugin_with(*stored).is_schedulable_after_pod_change(p, None, new) is want
