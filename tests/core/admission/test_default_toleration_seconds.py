"""DefaultTolerationSeconds: every pod tolerates not-ready and unreachable NoExecute for 300 s."""

from scheduler_core.admission.default_toleration_seconds import admit_default_toleration_seconds
from scheduler_core.api.types import ObjectMeta, Pod, PodSpec, Toleration
from tests.core.admission.helpers import admitted

NOT_READY = Toleration("node.kubernetes.io/not-ready", "Exists", effect="NoExecute", toleration_seconds=300)
UNREACHABLE = Toleration("node.kubernetes.io/unreachable", "Exists", effect="NoExecute", toleration_seconds=300)


def pod(*tolerations: Toleration) -> Pod:
    return Pod(ObjectMeta("web", "default"), PodSpec(tolerations=tolerations))


def test_a_pod_without_tolerations_gets_both_defaults_in_upstream_order():
    assert admit_default_toleration_seconds(pod()).spec.tolerations == (NOT_READY, UNREACHABLE)


def test_an_existing_toleration_for_a_taint_is_left_alone_and_only_the_other_is_added():
    own = Toleration("node.kubernetes.io/unreachable", "Exists", effect="NoExecute", toleration_seconds=6000)
    assert admit_default_toleration_seconds(pod(own)).spec.tolerations == (own, NOT_READY)


def test_a_toleration_with_an_empty_key_or_effect_already_covers_the_taints():
    everything = Toleration(operator="Exists")
    assert admit_default_toleration_seconds(pod(everything)).spec.tolerations == (everything,)
    any_effect = Toleration("node.kubernetes.io/not-ready", "Exists")
    assert admit_default_toleration_seconds(pod(any_effect)).spec.tolerations == (any_effect, UNREACHABLE)


def test_a_noschedule_toleration_for_the_key_does_not_count():
    no_schedule = Toleration("node.kubernetes.io/not-ready", "Exists", effect="NoSchedule")
    assert admit_default_toleration_seconds(pod(no_schedule)).spec.tolerations == (no_schedule, NOT_READY, UNREACHABLE)


def test_the_api_server_adds_them_on_create():
    created = admitted("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: app}]}")
    assert created.spec.tolerations == (NOT_READY, UNREACHABLE)
