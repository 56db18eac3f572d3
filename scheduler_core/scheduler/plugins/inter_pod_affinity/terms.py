"""The incoming pod's inter-pod (anti-)affinity terms as InterPodAffinity reads them.

Upstream parses them with framework.NewPodInfo (pkg/scheduler/framework/types.go: every selector
through metav1.LabelSelectorAsSelector, which validates keys and values like labels.NewRequirement)
and then folds a non-empty namespaceSelector into the namespace names
(interpodaffinity/plugin.go, mergeAffinityTermNamespacesIfNotEmpty).
"""

import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import EMPTY, LabelSelector, Pod
from scheduler_core.scheduler.snapshot import AffinityTerm, PodInfo, WeightedAffinityTerm

# apimachinery/pkg/util/validation: the messages and patterns IsQualifiedName and IsValidLabelValue report.
_QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QUALIFIED_NAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)
_LABEL_VALUE_FMT = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character"
)
_QUALIFIED_NAME = re.compile(_QUALIFIED_NAME_FMT)
_LABEL_VALUE = re.compile(_LABEL_VALUE_FMT)
_DNS1123_SUBDOMAIN = re.compile(_DNS1123_SUBDOMAIN_FMT)
_GO_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


def _regex_error(message: str, pattern: str, *examples: str) -> str:
    shown = " or ".join(f"'{example}', " for example in examples)
    return f"{message} (e.g. {shown}regex used for validation is '{pattern}')"


def _go_quote(value: str) -> str:
    """Go's %q for the printable and common control characters a label can hold."""
    out = []
    for char in value:
        if char in _GO_ESCAPES:
            out.append(_GO_ESCAPES[char])
        elif not char.isprintable():
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x80 else f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _qualified_name_errors(value: str) -> list[str]:
    errors: list[str] = []
    parts = value.split("/")
    if len(parts) > 2:
        qualified = _regex_error(_QUALIFIED_NAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
        return [
            f"a qualified name {qualified} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            if len(prefix.encode()) > 253:
                errors.append("prefix part must be no more than 253 characters")
            if not _DNS1123_SUBDOMAIN.fullmatch(prefix):
                errors.append(
                    "prefix part " + _regex_error(_DNS1123_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com")
                )
    if not name:
        errors.append("name part must be non-empty")
    elif len(name.encode()) > 63:
        errors.append("name part must be no more than 63 characters")
    if not _QUALIFIED_NAME.fullmatch(name):
        errors.append(
            "name part " + _regex_error(_QUALIFIED_NAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
        )
    return errors


def _label_value_errors(value: str) -> list[str]:
    errors = []
    if len(value.encode()) > 63:
        errors.append("must be no more than 63 characters")
    if not _LABEL_VALUE.fullmatch(value):
        errors.append(_regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errors


def _aggregate(messages: Iterable[str]) -> str:
    """utilerrors.NewAggregate(...).Error(): duplicates dropped, several bracketed."""
    unique = list(dict.fromkeys(messages))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def _requirement_error(key: str, values: tuple[str, ...]) -> str | None:
    """labels.NewRequirement's key and value checks. The operator and value-count checks are left
    out: the manifest parser already refuses what they would (In without values and so on)."""
    errors = []
    key_errors = _qualified_name_errors(key)
    if key_errors:
        errors.append(f"key: Invalid value: {_go_quote(key)}: {'; '.join(key_errors)}")
    for index, value in enumerate(values):
        value_errors = _label_value_errors(value)
        if value_errors:
            errors.append(f"values[{index}][{key}]: Invalid value: {_go_quote(value)}: {'; '.join(value_errors)}")
    return _aggregate(errors) if errors else None


def _selector_error(selector: LabelSelector | None) -> str | None:
    """metav1.LabelSelectorAsSelector: the first invalid requirement's error."""
    if selector is None:
        return None
    for key, value in selector.match_labels.items():
        problem = _requirement_error(key, (value,))
        if problem:
            return problem
    for requirement in selector.match_expressions:
        problem = _requirement_error(requirement.key, requirement.values)
        if problem:
            return problem
    return None


def terms_error(terms: Iterable[AffinityTerm]) -> str | None:
    """getAffinityTerms stops at the first term whose labelSelector or namespaceSelector is invalid."""
    for term in terms:
        problem = _selector_error(term.selector) or _selector_error(term.namespace_selector)
        if problem:
            return problem
    return None


def pod_parse_error(info: PodInfo) -> str | None:
    """NewPodInfo's error for the pod's four term lists, aggregated; None when they all parse."""
    problems = []
    for prefix, terms in (
        ("requiredAffinityTerms", info.required_affinity_terms),
        ("requiredAntiAffinityTerms", info.required_anti_affinity_terms),
        ("preferredAffinityTerms", tuple(w.term for w in info.preferred_affinity_terms)),
        ("preferredAntiAffinityTerms", tuple(w.term for w in info.preferred_anti_affinity_terms)),
    ):
        problem = terms_error(terms)
        if problem:
            problems.append(f"{prefix}: {problem}")
    return _aggregate(problems) if problems else None


def _selector_key(selector: LabelSelector | None) -> Hashable:
    if selector is None:
        return None
    return (frozenset(selector.match_labels.items()), selector.match_expressions)


@dataclass(frozen=True, slots=True)
class IncomingTerm:
    """One of the incoming pod's terms with its namespaceSelector folded into names: a non-empty
    selector becomes the namespaces it selects now (and then selects nothing), an empty one ({})
    keeps selecting every namespace, a missing one selects none."""

    namespaces: frozenset[str]
    all_namespaces: bool
    selector: LabelSelector | None
    topology_key: str
    weight: int
    key: Hashable  # everything above, for the count caches' signatures

    def matches(self, pod: Pod) -> bool:
        """AffinityTerm.Matches with nil namespace labels: the namespace selector was merged away."""
        metadata = pod.metadata
        if not self.all_namespaces and metadata.namespace not in self.namespaces:
            return False
        return label_selector_matches(self.selector, metadata.labels)


def _incoming(term: AffinityTerm, namespaces: frozenset[str], all_namespaces: bool, weight: int) -> IncomingTerm:
    key = (namespaces, all_namespaces, _selector_key(term.selector), term.topology_key, weight)
    return IncomingTerm(namespaces, all_namespaces, term.selector, term.topology_key, weight, key)


def resolve_term(term: AffinityTerm, weight: int, namespace_labels: Mapping[str, Mapping[str, str]]) -> IncomingTerm:
    namespaces = term.namespaces
    all_namespaces = False
    namespace_selector = term.namespace_selector
    if namespace_selector is not None:
        if namespace_selector.is_empty:
            all_namespaces = True
        else:
            namespaces = namespaces | frozenset(
                name for name, labels in namespace_labels.items() if label_selector_matches(namespace_selector, labels)
            )
    return _incoming(term, namespaces, all_namespaces, weight)


def unmerged_term(term: AffinityTerm) -> IncomingTerm:
    """The term as upstream's queueing hints read it: GetAffinityTerms without the namespaceSelector
    merge, matched with nil namespace labels. A namespaceSelector that matches an empty label set
    ({}, or only NotIn/DoesNotExist) so selects every namespace; any other selects none beyond the
    listed names (kubernetes#141953, open after v1.34)."""
    selector = term.namespace_selector
    return _incoming(term, term.namespaces, selector is not None and label_selector_matches(selector, EMPTY), 0)


def resolve_terms(
    terms: Iterable[AffinityTerm], namespace_labels: Mapping[str, Mapping[str, str]]
) -> tuple[IncomingTerm, ...]:
    return tuple(resolve_term(term, 0, namespace_labels) for term in terms)


def resolve_weighted_terms(
    terms: Iterable[WeightedAffinityTerm], namespace_labels: Mapping[str, Mapping[str, str]]
) -> tuple[IncomingTerm, ...]:
    return tuple(resolve_term(weighted.term, weighted.weight, namespace_labels) for weighted in terms)


def pod_key(pod: Pod, namespace_labels: Mapping[str, str]) -> Hashable:
    """What existing pods' terms are matched against: the pod's namespace, its labels and the labels
    of its namespace."""
    return (pod.namespace, frozenset(pod.labels.items()), frozenset(namespace_labels.items()))
