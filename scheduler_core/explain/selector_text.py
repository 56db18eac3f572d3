"""A label selector as kubectl prints it: metav1.LabelSelectorAsSelector(...).String() (a
Deployment's Selector line) and metav1.FormatLabelSelector (a topology spread constraint's)."""

from scheduler_core.api.types import LabelSelector

NONE = "<none>"


def selector_string(selector: LabelSelector) -> str:
    """The requirements by key, joined by commas: `app=web`, `tier in (a,b)`, `tier notin (a)`,
    `tier` (Exists), `!tier` (DoesNotExist). Everything (an empty selector) prints as nothing."""
    requirements = [(key, f"{key}={value}") for key, value in selector.match_labels.items()]
    for requirement in selector.match_expressions:
        values = ",".join(sorted(requirement.values))
        text = {
            "In": f"{requirement.key} in ({values})",
            "NotIn": f"{requirement.key} notin ({values})",
            "DoesNotExist": f"!{requirement.key}",
        }.get(requirement.operator, requirement.key)
        requirements.append((requirement.key, text))
    requirements.sort(key=lambda keyed: keyed[0])
    return ",".join(text for _, text in requirements)


def format_label_selector(selector: LabelSelector | None) -> str:
    """FormatLabelSelector: <none> for no selector or one that selects everything."""
    if selector is None:
        return NONE
    return selector_string(selector) or NONE
