"""Resource arguments as kubectl resolves them against discovery: a plural ("pods"), a singular
("pod"), a short name ("po"), a kind in any case ("Pod"), each optionally with its group
("deployments.apps"); "TYPE/NAME" pairs; comma-separated types ("pods,svc"); the "all" category."""

from dataclasses import dataclass

from scheduler_core.kubeapi.resources import RESOURCES, Resource


class NameError_(ValueError):
    """str(error) is kubectl's message."""


@dataclass(frozen=True, slots=True)
class Target:
    resource: Resource
    name: str = ""  # "" for every object of the type


def resolve(word: str) -> Resource:
    """One resource type, as kubectl's RESTMapper finds it; kubectl's error otherwise."""
    lowered = word.lower()
    name, _, group = lowered.partition(".")
    for resource in RESOURCES:
        if group and group != resource.group:
            continue
        if name in (resource.plural, resource.singular, resource.kind.lower(), *resource.short_names):
            return resource
    raise NameError_(f'the server doesn\'t have a resource type "{name}"')


def resolve_types(word: str) -> list[Resource]:
    """ "pods,svc" or "all" (the category) to their types, in order."""
    found: list[Resource] = []
    for part in word.split(","):
        if part.lower() == "all":
            found.extend(resource for resource in RESOURCES if "all" in resource.categories)
        else:
            found.append(resolve(part))
    return found


def targets(words: list[str]) -> list[Target]:
    """kubectl's resource arguments: "TYPE NAME...", "TYPE", or "TYPE/NAME TYPE/NAME...", never mixed."""
    if not words:
        return []
    if any("/" in word for word in words):
        if not all("/" in word for word in words):
            raise NameError_(
                "there is no need to specify a resource type as a separate argument when passing arguments in "
                "resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of "
                "'kubectl get resource resource/<resource_name>'"
            )
        pairs = [word.split("/", 1) for word in words]
        return [Target(resolve(kind), name) for kind, name in pairs]
    types = resolve_types(words[0])
    if len(words) == 1:
        return [Target(resource) for resource in types]
    if len(types) > 1:
        raise NameError_("you may only specify a single resource type")
    return [Target(types[0], name) for name in words[1:]]


def object_name(resource: Resource, name: str) -> str:
    """How `-o name` and kubectl's messages name an object: "pod/web-0", "deployment.apps/web"."""
    kind = resource.kind.lower()
    return f"{kind}.{resource.group}/{name}" if resource.group else f"{kind}/{name}"
