"""Tab completion for the page's console, as kubectl's shell completion offers it: the command, a
subcommand (rollout status, set image), a resource type, the names of the objects of the type named
before (in the namespace `-n` names), node names where a command takes a node, namespaces after
`-n`, output formats after `-o`, and the common flags.

`complete(line, snapshot)` answers the candidates for the line's last word (the word being typed,
"" after a space), sorted; the caller completes their common prefix and lists them."""

import shlex

from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.resources import RESOURCES, Resource
from scheduler_core.kubectl.names import NameError_, resolve

# The commands the console carries out (others are refused with kubectl's own texts).
COMMANDS = (
    "annotate", "api-resources", "apply", "cordon", "create", "delete", "describe", "drain", "events", "explain",
    "get", "label", "rollout", "scale", "set", "taint", "top", "uncordon", "version",
)  # fmt: skip
SUBCOMMANDS = {
    "rollout": ("history", "pause", "restart", "resume", "status", "undo"),
    "set": ("image", "resources"),
    "top": ("node", "pod"),
}
NODE_COMMANDS = {"cordon", "uncordon", "drain", "taint"}  # the first argument is a node (taint: `nodes` first)
TYPED_COMMANDS = {"get", "describe", "delete", "label", "annotate", "scale", "rollout", "set"}  # TYPE NAME or TYPE/NAME
SCALABLE_KINDS = ("Deployment", "StatefulSet", "ReplicaSet")
ROLLOUT_KINDS = ("Deployment", "StatefulSet", "DaemonSet")
OUTPUT_FORMATS = ("json", "name", "wide", "yaml")
FLAGS = {
    "": ("--namespace", "--all-namespaces"),
    "apply": ("--filename", "--server-side"),
    "create": ("--filename",),
    "get": ("--output", "--selector", "--field-selector", "--show-labels", "--no-headers", "--watch"),
    "describe": ("--selector",),
    "delete": ("--grace-period", "--force", "--now", "--selector"),
    "drain": ("--ignore-daemonsets", "--delete-emptydir-data", "--force", "--grace-period", "--timeout"),
    "label": ("--overwrite", "--all", "--selector"),
    "annotate": ("--overwrite", "--all", "--selector"),
    "events": ("--for", "--types", "--output"),
    "explain": ("--recursive", "--api-version"),
    "set": ("--containers", "--limits", "--requests"),
    "taint": ("--overwrite", "--all", "--selector"),
    "scale": ("--replicas", "--current-replicas"),
    "cordon": ("--selector", "--dry-run"),
    "uncordon": ("--selector", "--dry-run"),
}
VALUE_FLAGS = {"-n", "--namespace", "-o", "--output", "-l", "--selector", "--field-selector", "--grace-period"}


def complete(line: str, snapshot: ApiSnapshot) -> list[str]:
    words, current = _words(line)
    if not words and current and "kubectl".startswith(current) and current != "kubectl":
        return ["kubectl"]  # the tutorials' lines start with it
    if words[:1] == ["kubectl"]:
        words = words[1:]
    if not words:
        return _starting(COMMANDS, current)
    verb = words[0]
    previous = words[-1]
    if previous in ("-n", "--namespace"):
        return _starting(_namespaces(snapshot), current)
    if previous in ("-o", "--output"):
        return _starting(OUTPUT_FORMATS, current)
    if current.startswith("-"):
        return _starting(FLAGS.get(verb, ()) + FLAGS[""], current)
    args, namespace = _arguments(words[1:])
    if verb in SUBCOMMANDS:
        if not args:
            return _starting(SUBCOMMANDS[verb], current)
        args = args[1:]
    if verb in NODE_COMMANDS:
        if verb == "taint" and not args:
            return _starting(("nodes", "node"), current)
        if len(args) >= (2 if verb == "taint" else 1):  # the node is named: what follows is not a node
            return []
        return _starting(_names(snapshot, resolve("nodes"), namespace), current)
    if verb == "explain":  # TYPE[.FIELD...]: the type; no object names
        return [] if args else _starting(_types(verb), current)
    if verb not in TYPED_COMMANDS:
        return []
    if "/" in current:  # TYPE/NAME
        kind, _, _ = current.partition("/")
        resource = _resolved(kind)
        if resource is None:
            return []
        return _starting([f"{kind}/{name}" for name in _names(snapshot, resource, namespace)], current)
    if not args:
        return _starting(_types(verb), current)
    resource = _resolved(args[0].split(",")[0])
    if resource is None or "/" in args[0]:
        return []
    return _starting(_names(snapshot, resource, namespace), current)


def _words(line: str) -> tuple[list[str], str]:
    """The finished words and the one being typed; an unclosed quote counts as closed."""
    for closing in ("", '"', "'"):
        try:
            words = shlex.split(line + closing)
            break
        except ValueError:
            continue
    else:
        return [], ""
    if not line or line[-1].isspace():
        return words, ""
    return words[:-1], words[-1] if words else ""


def _arguments(words: list[str]) -> tuple[list[str], str]:
    """The positional words (flags and their values left out) and the namespace named."""
    args: list[str] = []
    namespace = "default"
    index = 0
    while index < len(words):
        word = words[index]
        if word in VALUE_FLAGS and index + 1 < len(words):
            if word in ("-n", "--namespace"):
                namespace = words[index + 1]
            index += 2
            continue
        if word.startswith("--namespace="):
            namespace = word.partition("=")[2]
        elif word.startswith("-n") and len(word) > 2 and not word.startswith("--"):
            namespace = word[2:]
        elif not word.startswith("-"):
            args.append(word)
        index += 1
    return args, namespace


def _types(verb: str) -> list[str]:
    if verb == "scale":
        return sorted(r.plural for r in RESOURCES if r.kind in SCALABLE_KINDS)
    if verb in ("rollout", "set"):
        return sorted(r.plural for r in RESOURCES if r.kind in ROLLOUT_KINDS)
    names = {r.plural for r in RESOURCES} | {short for r in RESOURCES for short in r.short_names}
    if verb == "get":
        names.add("all")
    return sorted(names)


def _resolved(word: str) -> Resource | None:
    try:
        return resolve(word)
    except NameError_:
        return None


def _names(snapshot: ApiSnapshot, resource: Resource, namespace: str) -> list[str]:
    if resource.kind == "Event":
        return []
    return sorted(
        obj.metadata.name
        for obj in snapshot.objects(resource)
        if not resource.namespaced or obj.metadata.namespace == namespace
    )


def _namespaces(snapshot: ApiSnapshot) -> list[str]:
    """The namespaces the API lists (the declared ones, the system ones, and every one in use)."""
    return sorted(namespace.metadata.name for namespace in snapshot.objects(resolve("namespaces")))


def _starting(candidates: tuple[str, ...] | list[str], prefix: str) -> list[str]:
    return sorted({candidate for candidate in candidates if candidate.startswith(prefix)})
