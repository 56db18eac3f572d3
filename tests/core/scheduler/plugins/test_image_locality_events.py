"""ImageLocality registers no events in v1.34 (it is a Score plugin only and does not implement
EnqueueExtensions), so the framework registers it for every event, as upstream's
defaultEnqueueExtension."""

from scheduler_core.scheduler.cluster_events import WILDCARD_REGISTRATIONS, EnqueueExtensions, build_queueing_hint_map
from scheduler_core.scheduler.plugins.image_locality import NAME, ImageLocality
from scheduler_core.scheduler.runtime import Handle


def test_has_no_registrations_of_its_own_and_gets_every_event() -> None:
    plugin = ImageLocality({}, Handle())
    assert not isinstance(plugin, EnqueueExtensions)
    assert set(build_queueing_hint_map({NAME: plugin})) == {r.event for r in WILDCARD_REGISTRATIONS}
