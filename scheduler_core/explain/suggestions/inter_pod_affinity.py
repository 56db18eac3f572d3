"""InterPodAffinity's fix: the pod's own required (anti-)affinity term made preferred."""

from dataclasses import replace

from scheduler_core.api.manifest_writer import pod_affinity_term_manifest
from scheduler_core.api.types import Affinity, Pod, PodAffinity, PodAffinityTerm, WeightedPodAffinityTerm
from scheduler_core.explain.suggestions.candidates import (
    RELAX_AFFINITY_TERM,
    SCOPE_POD,
    Candidate,
    PodChange,
    Rejection,
    pod_target,
)
from scheduler_core.scheduler.plugins.inter_pod_affinity.plugin import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
)


def _affinity_term_text(term: PodAffinityTerm) -> str:
    selector = term.label_selector
    labels = ", ".join(f"{k}={v}" for k, v in selector.match_labels.items()) if selector else ""
    return f"topologyKey {term.topology_key}" + (f", pods with {labels}" if labels else "")


def candidates(rejection: Rejection) -> list[Candidate]:
    pod, reasons = rejection.pod, rejection.reasons
    seen = {reason for names in reasons.values() for reason in names}
    affinity = pod.spec.affinity
    candidates: list[Candidate] = []
    if affinity is None:
        return candidates
    for anti, reason, field_name, title in (
        (False, ERR_REASON_AFFINITY_RULES_NOT_MATCH, "podAffinity", "pod affinity"),
        (True, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, "podAntiAffinity", "pod anti-affinity"),
    ):
        rules = affinity.pod_anti_affinity if anti else affinity.pod_affinity
        if reason not in seen or rules is None:
            continue
        for index, term in enumerate(rules.required):
            relaxed = PodAffinity(
                required=(*rules.required[:index], *rules.required[index + 1 :]),
                preferred=(*rules.preferred, WeightedPodAffinityTerm(100, term)),
            )
            snippet = {
                "spec": {
                    "affinity": {
                        field_name: {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                pod_affinity_term_manifest(t) for t in relaxed.required
                            ],
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {"weight": w.weight, "podAffinityTerm": pod_affinity_term_manifest(w.pod_affinity_term)}
                                for w in relaxed.preferred
                            ],
                        }
                    }
                }
            }
            candidates.append(
                Candidate(
                    RELAX_AFFINITY_TERM,
                    f"Make the pod's required {title} term ({_affinity_term_text(term)}) preferred instead",
                    snippet,
                    pod_target(pod),
                    SCOPE_POD,
                    f"{field_name}:{index}",
                    pod_change=_set_pod_affinity(anti, relaxed),
                )
            )
    return candidates


def _set_pod_affinity(anti: bool, rules: PodAffinity) -> PodChange:
    def change(pod: Pod) -> Pod:
        affinity = pod.spec.affinity or Affinity()
        affinity = replace(affinity, pod_anti_affinity=rules) if anti else replace(affinity, pod_affinity=rules)
        return replace(pod, spec=replace(pod.spec, affinity=affinity))

    return change
