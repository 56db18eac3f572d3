"""Syntax of names, label keys and label values (apimachinery/pkg/util/validation).

Checked at parse time, so hostile or mistyped values (HTML, spaces, 10 kB strings) never reach the
engine or a page.
"""

import re
from contextvars import ContextVar

# Objects are checked as the API server checks them (names, a pod's containers). Upstream's unit-test
# tables build objects without an API server ("nodeA", pods with no container), so their runner
# turns this off.
API_VALIDATION: ContextVar[bool] = ContextVar("API_VALIDATION", default=True)

_NAME_PART = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
_DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")

QUALIFIED_NAME_ERROR = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc')"
)
LABEL_VALUE_ERROR = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345')"
)
DNS1123_SUBDOMAIN_ERROR = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com')"
)
DNS1123_LABEL_ERROR = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character (e.g. 'my-name',  or '123-abc')"
)


def qualified_name_problem(value: str) -> str | None:
    """None when ``value`` is a valid label/annotation key or resource name, else why not."""
    prefix, slash, name = value.rpartition("/")
    if slash:
        if not prefix:
            return "prefix part must be non-empty"
        if len(prefix) > 253:
            return "prefix part must be no more than 253 characters"
        if not _DNS1123_SUBDOMAIN.match(prefix):
            return "prefix part " + DNS1123_SUBDOMAIN_ERROR
    if not name:
        return "name part must be non-empty"
    if len(name) > 63:
        return "name part must be no more than 63 characters"
    if not _NAME_PART.match(name):
        return QUALIFIED_NAME_ERROR
    return None


def label_value_problem(value: str) -> str | None:
    if len(value) > 63:
        return "must be no more than 63 characters"
    if not _LABEL_VALUE.match(value):
        return LABEL_VALUE_ERROR
    return None


def subdomain_problem(value: str) -> str | None:
    if not API_VALIDATION.get():
        return None if value and len(value) <= 253 and "/" not in value else "must be a non-empty name without '/'"
    if len(value) > 253:
        return "must be no more than 253 characters"
    if not _DNS1123_SUBDOMAIN.match(value):
        return DNS1123_SUBDOMAIN_ERROR
    return None


def dns_label_problem(value: str) -> str | None:
    if not API_VALIDATION.get():
        return None if value and len(value) <= 253 and "/" not in value else "must be a non-empty name without '/'"
    if len(value) > 63:
        return "must be no more than 63 characters"
    if not _DNS1123_LABEL.match(value):
        return DNS1123_LABEL_ERROR
    return None
