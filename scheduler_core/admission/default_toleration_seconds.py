"""The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds).

Every pod that does not already tolerate node.kubernetes.io/not-ready:NoExecute (or
node.kubernetes.io/unreachable:NoExecute) gets a toleration for it with tolerationSeconds 300
(the kube-apiserver flags --default-not-ready-toleration-seconds and
--default-unreachable-toleration-seconds). A toleration counts when its key is that taint's or
empty, and its effect NoExecute or empty; the operator and value are not looked at.
"""

from dataclasses import replace

from scheduler_core.api.types import NO_EXECUTE, Pod, PodSpec, Toleration

TAINT_NODE_NOT_READY = "node.kubernetes.io/not-ready"
TAINT_NODE_UNREACHABLE = "node.kubernetes.io/unreachable"
DEFAULT_NOT_READY_TOLERATION_SECONDS = 300
DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300


def _covers(toleration: Toleration, key: str) -> bool:
    return toleration.key in (key, "") and toleration.effect in (NO_EXECUTE, "")


def admit_default_toleration_seconds(pod: Pod) -> Pod:
    spec = default_toleration_seconds_spec(pod.spec)
    return pod if spec is pod.spec else replace(pod, spec=spec)


def default_toleration_seconds_spec(spec: PodSpec) -> PodSpec:
    """The spec with the tolerations it lacks; `spec` itself when it lacks none."""
    tolerations = spec.tolerations
    added: list[Toleration] = []
    for key, seconds in (
        (TAINT_NODE_NOT_READY, DEFAULT_NOT_READY_TOLERATION_SECONDS),
        (TAINT_NODE_UNREACHABLE, DEFAULT_UNREACHABLE_TOLERATION_SECONDS),
    ):
        if not any(_covers(toleration, key) for toleration in tolerations):
            added.append(Toleration(key=key, operator="Exists", effect=NO_EXECUTE, toleration_seconds=seconds))
    if not added:
        return spec
    return replace(spec, tolerations=(*tolerations, *added))
