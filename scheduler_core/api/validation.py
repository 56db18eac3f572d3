"""Syntax of names, label keys and label values (apimachinery/pkg/util/validation), and of resource
names (pkg/apis/core/validation, pkg/apis/core/helper).

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


# ---------------------------------------------------------------------------- resource names
# Kubernetes v1.34: pkg/apis/core/helper/helpers.go (standardResources, IsStandardResourceName,
# IsNativeResource, IsExtendedResourceName) and pkg/apis/core/validation/validation.go
# (validateResourceName, validateContainerResourceName).

STANDARD_RESOURCES = frozenset(
    {
        "cpu",
        "memory",
        "ephemeral-storage",
        "requests.cpu",
        "requests.memory",
        "requests.ephemeral-storage",
        "limits.cpu",
        "limits.memory",
        "limits.ephemeral-storage",
        "pods",
        "resourcequotas",
        "services",
        "replicationcontrollers",
        "secrets",
        "configmaps",
        "persistentvolumeclaims",
        "storage",
        "requests.storage",
        "services.nodeports",
        "services.loadbalancers",
    }
)
STANDARD_CONTAINER_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage"})
RESOURCE_DEFAULT_NAMESPACE_PREFIX = "kubernetes.io/"
DEFAULT_RESOURCE_REQUESTS_PREFIX = "requests."
EXTENDED_RESOURCE_ERROR = "doesn't follow extended resource name standard"
EXTENDED_RESOURCE_HINT = " (a domain-prefixed name outside kubernetes.io, e.g. 'example.com/gpu')"


def is_native_resource(name: str) -> bool:
    """Unprefixed names are implicitly in kubernetes.io/, like the ones that say so."""
    return "/" not in name or RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


def is_extended_resource_name(name: str) -> bool:
    if is_native_resource(name) or name.startswith(DEFAULT_RESOURCE_REQUESTS_PREFIX):
        return False
    # A quota names it "requests.<name>": that must still be a qualified name.
    return qualified_name_problem(DEFAULT_RESOURCE_REQUESTS_PREFIX + name) is None


def resource_name_problem(name: str) -> str | None:
    """validateResourceName: a qualified name, and a standard resource when unprefixed."""
    problem = qualified_name_problem(name)
    if problem or not API_VALIDATION.get():
        return problem
    if "/" not in name and not (name in STANDARD_RESOURCES or name.startswith(("hugepages-", "requests.hugepages-"))):
        return "must be a standard resource type or fully qualified"
    return None


def node_resource_name_problem(name: str) -> str | None:
    """What a node may advertise: a standard resource, or an extended one. Upstream's API server
    checks only the quantities of a node's capacity; the names come from the kubelet, whose device
    manager admits only extended resource names (pkg/kubelet/cm/devicemanager/manager.go)."""
    problem = resource_name_problem(name)
    if problem or "/" not in name or not API_VALIDATION.get():
        return problem
    return None if is_extended_resource_name(name) else EXTENDED_RESOURCE_ERROR + EXTENDED_RESOURCE_HINT


def container_resource_name_problem(name: str) -> str | None:
    """validateContainerResourceName: what a container may request or limit."""
    problem = resource_name_problem(name)
    if problem or not API_VALIDATION.get():
        return problem
    if "/" not in name:
        if name not in STANDARD_CONTAINER_RESOURCES and not name.startswith("hugepages-"):
            return "must be a standard resource for containers"
    elif not is_native_resource(name) and not is_extended_resource_name(name):
        return EXTENDED_RESOURCE_ERROR + EXTENDED_RESOURCE_HINT
    return None
