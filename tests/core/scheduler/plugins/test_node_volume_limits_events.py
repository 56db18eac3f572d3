"""NodeVolumeLimits' EventsToRegister and QueueingHints, after upstream's csi_test.go (TestCSILimitsQHint,
TestCSILimitsAddedPVCQHint, TestCSILimitsDeletedVolumeAttachmentQHint). Cases built on ephemeral or
migratable in-tree inline volumes are not ported: the engine's pods have neither. VolumeAttachments
are plain manifests."""

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import ActionType, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.node_volume_limits import NodeVolumeLimits
from scheduler_core.scheduler.volume_lister import StaticVolumeLister
from tests.core.scheduler.plugins.test_volume_binding import claim, pod

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def in_namespace(obj: Any, namespace: str) -> Any:
    return replace(obj, metadata=replace(obj.metadata, namespace=namespace))


def plugin_with(*claims: Any) -> NodeVolumeLimits:
    return NodeVolumeLimits({}, SimpleNamespace(volumes=StaticVolumeLister(claims)))


def test_events_to_register_with_queueing_hints_on():
    registered = [(r.event.resource, r.event.action, r.hint is not None) for r in plugin_with().events_to_register()]
    assert registered == [
        (EventResource.CSI_NODE, ActionType.ADD, False),
        (EventResource.POD, ActionType.DELETE, True),
        (EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD, True),
        (EventResource.VOLUME_ATTACHMENT, ActionType.DELETE, True),
    ]


WAITING = pod("csi-ebs.csi.aws.com-2")


@pytest.mark.parametrize(
    ("case", "deleted", "want"),
    [
        ("deleted pod had a claim", pod("placeholder", name="gone", node_name="node-1"), QUEUE),
        ("deleted pod had no volume", pod(name="gone", node_name="node-1"), SKIP),
        ("deleted pod was not scheduled", pod("csi-ebs.csi.aws.com-0", name="gone"), SKIP),
        ("wrong old object", "not-a-pod", QUEUE),
    ],
)
def test_is_schedulable_after_pod_deleted(case: str, deleted: Any, want: QueueingHint):
    assert plugin_with().is_schedulable_after_pod_deleted(WAITING, deleted, None) is want


@pytest.mark.parametrize(
    ("case", "p", "added", "want"),
    [
        ("claim in another namespace", in_namespace(pod(), "ns1"), in_namespace(claim("pvc-1"), "ns2"), SKIP),
        ("the pod's claim", in_namespace(pod("pvc1"), "ns1"), in_namespace(claim("pvc1"), "ns1"), QUEUE),
        ("another claim", in_namespace(pod("pvc1"), "ns1"), in_namespace(claim("pvc2"), "ns1"), SKIP),
        ("pod without claims", in_namespace(pod(), "ns1"), in_namespace(claim("pvc2"), "ns1"), SKIP),
        ("wrong new object", pod("pvc1"), "not-a-pvc", QUEUE),
    ],
)
def test_is_schedulable_after_claim_added(case: str, p: Pod, added: Any, want: QueueingHint):
    assert plugin_with().is_schedulable_after_claim_added(p, None, added) is want


def attachment(attacher: str, volume_name: str | None = None) -> dict[str, Any]:
    source = (
        {"persistentVolumeName": volume_name} if volume_name else {"inlineVolumeSpec": {"csi": {"driver": attacher}}}
    )
    return {
        "metadata": {"name": "volumeattachment1"},
        "spec": {"nodeName": "fake-node", "attacher": attacher, "source": source},
    }


BOUND_PVC1 = in_namespace(claim("pvc1", bound="pv1"), "ns1")


@pytest.mark.parametrize(
    ("case", "p", "claims", "deleted", "want"),
    [
        (
            "the pod's claim is bound to the detached PV",
            in_namespace(pod("pvc1"), "ns1"),
            [BOUND_PVC1],
            attachment("test.storage.gke.io", "pv1"),
            QUEUE,
        ),
        ("pod without claims", in_namespace(pod(), "ns1"), [], attachment("test.storage.gke.io", "pv1"), SKIP),
        # Not upstream's table.
        (
            "the pod's claim is bound to another PV",
            in_namespace(pod("pvc1"), "ns1"),
            [BOUND_PVC1],
            attachment("test.storage.gke.io", "pv2"),
            SKIP,
        ),
        (
            "an inline-volume attachment: no claim's PV",
            in_namespace(pod("pvc1"), "ns1"),
            [BOUND_PVC1],
            attachment("ebs.csi.aws.com"),
            SKIP,
        ),
        (
            "the pod's claim cannot be read (upstream's lister error)",
            in_namespace(pod("pvc1"), "ns1"),
            [],
            attachment("test.storage.gke.io", "pv1"),
            QUEUE,
        ),
        ("wrong old object", in_namespace(pod("pvc1"), "ns1"), [BOUND_PVC1], "not-an-attachment", QUEUE),
    ],
)
def test_is_schedulable_after_volume_attachment_deleted(
    case: str, p: Pod, claims: list[Any], deleted: Any, want: QueueingHint
):
    assert plugin_with(*claims).is_schedulable_after_volume_attachment_deleted(p, deleted, None) is want
