"""PodTopologySpread's fixes: the constraint's maxSkew plus one, or whenUnsatisfiable: ScheduleAnyway."""

from dataclasses import replace

from scheduler_core.api.manifest_writer import spread_constraint_manifest
from scheduler_core.api.types import Pod, TopologySpreadConstraint
from scheduler_core.explain.suggestions.candidates import (
    RELAX_SPREAD,
    SCOPE_POD,
    Candidate,
    PodChange,
    Rejection,
    pod_target,
)


def candidates(rejection: Rejection) -> list[Candidate]:
    pod = rejection.pod
    constraints = pod.spec.topology_spread_constraints
    candidates: list[Candidate] = []
    for index, constraint in enumerate(constraints):
        if constraint.when_unsatisfiable != "DoNotSchedule":
            continue
        for relaxed, action in (
            (
                replace(constraint, max_skew=constraint.max_skew + 1),
                f"Raise maxSkew of the pod's topology spread constraint on {constraint.topology_key} "
                f"from {constraint.max_skew} to {constraint.max_skew + 1}",
            ),
            (
                replace(constraint, when_unsatisfiable="ScheduleAnyway"),
                f"Make the pod's topology spread constraint on {constraint.topology_key} "
                "whenUnsatisfiable: ScheduleAnyway (a preference instead of a rule)",
            ),
        ):
            updated = (*constraints[:index], relaxed, *constraints[index + 1 :])
            candidates.append(
                Candidate(
                    RELAX_SPREAD,
                    action,
                    {"spec": {"topologySpreadConstraints": [spread_constraint_manifest(c) for c in updated]}},
                    pod_target(pod),
                    SCOPE_POD,
                    f"spread:{index}:{relaxed.max_skew}:{relaxed.when_unsatisfiable}",
                    pod_change=_set_spread(updated),
                )
            )
    return candidates


def _set_spread(constraints: tuple[TopologySpreadConstraint, ...]) -> PodChange:
    def change(pod: Pod) -> Pod:
        return replace(pod, spec=replace(pod.spec, topology_spread_constraints=constraints))

    return change
