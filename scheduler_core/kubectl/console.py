"""A kubectl command typed in the page's console, carried out against the cluster at one moment of
a run: reads print what kubectl prints (through the same API, Tables and Status errors that a real
kubectl reads), writes are decided as the API decides them and come back as timeline Actions (the
web shell appends them at the player's moment, as the Act form does) with kubectl's message.

Commands: get, describe (nodes, deployments), cordon, uncordon, taint, label, scale, set image,
delete, drain, api-resources, version. Anything else gets kubectl's own error."""

import fnmatch
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from scheduler_core.api.manifest_writer import format_timestamp, timestamps_from
from scheduler_core.api.types import Node, Pod, PodDisruptionBudget
from scheduler_core.api.workloads import DaemonSet, Deployment, ReplicaSet, Service, StatefulSet
from scheduler_core.controllers.deployment_util import revision
from scheduler_core.explain.describe_daemon_set_text import daemon_set_text
from scheduler_core.explain.describe_deployment import describe_deployment
from scheduler_core.explain.describe_deployment_text import deployment_text
from scheduler_core.explain.describe_node import describe_node
from scheduler_core.explain.describe_node_text import node_text
from scheduler_core.explain.describe_pod_disruption_budget_text import pod_disruption_budget_text
from scheduler_core.explain.describe_pod_text import pod_text
from scheduler_core.explain.describe_replica_set_text import replica_set_text
from scheduler_core.explain.describe_service_text import service_text
from scheduler_core.explain.describe_stateful_set_text import stateful_set_text
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.kubeapi import discovery, reads, status
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.resources import BY_KIND, RESOURCES, Resource
from scheduler_core.kubeapi.status import qualified
from scheduler_core.kubeapi.write_types import WriteRequest
from scheduler_core.kubeapi.writes import MERGE, STRATEGIC, write
from scheduler_core.kubectl.apply import apply_files
from scheduler_core.kubectl.drain_filters import drain_filters
from scheduler_core.kubectl.event_order import kubectl_events
from scheduler_core.kubectl.explain import explain as explain_type
from scheduler_core.kubectl.flags import GET_FLAGS, CommandError, Flag, Parsed, UsageError, parse, split
from scheduler_core.kubectl.names import NameError_, Target, object_name, resolve, targets
from scheduler_core.kubectl.table_printer import PrintOptions, print_tables, table_lines
from scheduler_core.kubectl.top import top_nodes, top_pods
from scheduler_core.kubectl.watching import selection_of
from scheduler_core.store.event_correlation import EventRow, last_seen

OUTPUT_FORMATS = (
    "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,"
    "jsonpath-file,name,template,templatefile,wide,yaml"
)
# kubectl's commands (for its "unknown command" error and the console's completion).
VERBS = (
    "annotate", "api-resources", "api-versions", "apply", "attach", "auth", "autoscale", "certificate",
    "cluster-info", "completion", "config", "cordon", "cp", "create", "debug", "delete", "describe", "diff",
    "drain", "edit", "events", "exec", "explain", "expose", "get", "kustomize", "label", "logs", "options",
    "patch", "plugin", "port-forward", "proxy", "replace", "rollout", "run", "scale", "set", "taint", "top",
    "uncordon", "version", "wait",
)  # fmt: skip
SIMULATED = {"logs", "exec", "attach", "cp", "port-forward", "proxy", "debug"}
SHELL_WORDS = {"|", "||", "&&", ";", ">", ">>", "<", "&"}
# `kubectl` alone: its help's head, and the commands the console carries out, as kubectl lists them.
ROOT_HELP = """kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/

Basic Commands (Beginner):
  create          Create a resource from a file or from stdin
  expose          Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service
  run             Run a particular image on the cluster
  set             Set specific features on objects

Basic Commands (Intermediate):
  explain         Get documentation for a resource
  get             Display one or many resources
  edit            Edit a resource on the server
  delete          Delete resources by file names, stdin, resources and names, or by resources and label selector

Deploy Commands:
  rollout         Manage the rollout of a resource
  scale           Set a new size for a deployment, replica set, or replication controller
  autoscale       Auto-scale a deployment, replica set, stateful set, or replication controller

Cluster Management Commands:
  certificate     Modify certificate resources
  cluster-info    Display cluster information
  top             Display resource (CPU/memory) usage
  cordon          Mark node as unschedulable
  uncordon        Mark node as schedulable
  drain           Drain node in preparation for maintenance
  taint           Update the taints on one or more nodes

Troubleshooting and Debugging Commands:
  describe        Show details of a specific resource or group of resources
  logs            Print the logs for a container in a pod
  attach          Attach to a running container
  exec            Execute a command in a container
  port-forward    Forward one or more local ports to a pod
  proxy           Run a proxy to the Kubernetes API server
  cp              Copy files and directories to and from containers
  auth            Inspect authorization
  debug           Create debugging sessions for troubleshooting workloads and nodes
  events          List events

Advanced Commands:
  diff            Diff the live version against a would-be applied version
  apply           Apply a configuration to a resource by file name or stdin
  patch           Update fields of a resource
  replace         Replace a resource by file name or stdin
  wait            Experimental: Wait for a specific condition on one or many resources
  kustomize       Build a kustomization target from a directory or URL

Settings Commands:
  label           Update the labels on a resource
  annotate        Update the annotations on a resource
  completion      Output shell completion code for the specified shell (bash, zsh, fish, or powershell)

Subcommands provided by plugins:

Other Commands:
  api-resources   Print the supported API resources on the server
  api-versions    Print the supported API versions on the server, in the form of "group/version"
  config          Modify kubeconfig files
  plugin          Provides utilities for interacting with plugins
  version         Print the client and server version information

Usage:
  kubectl [flags] [options]

Use "kubectl <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
"""


@dataclass(frozen=True, slots=True)
class EditTarget:
    """What `kubectl edit` opens: the object, and the controllers that made it (nearest first), since
    a page edits what the scenario declares, not what its controllers made."""

    kind: str
    namespace: str
    name: str
    owners: tuple[str, ...] = ()  # "ReplicaSet/web-6d4b", "Deployment/web"


@dataclass(slots=True)
class ConsoleResult:
    stdout: str = ""
    stderr: str = ""
    actions: list[dict[str, Any]] = field(default_factory=list)
    edit: EditTarget | None = None  # kubectl edit: the page opens it in the workload editor
    watching: bool = False  # get -w: the page goes on printing the changes as the player moves on

    @property
    def exit_code(self) -> int:
        return 1 if self.stderr.startswith(("error", "Error")) else 0


def run(
    line: str,
    snapshot: ApiSnapshot,
    *,
    may_write: bool,
    user: str = "playground:viewer",
    files: Mapping[str, str] | None = None,
) -> ConsoleResult:
    """`files`: what `-f NAME` reads (the page asks for a file's text when a command names one)."""
    try:
        words = split(line)
        if not words:
            return ConsoleResult(stdout=ROOT_HELP if line.strip() else "")
        shell = next((word for word in words if word in SHELL_WORDS), None)
        if shell is not None:
            return ConsoleResult(
                stderr=f"error: {shell!r} is a shell's, and the console runs kubectl alone: no pipes, "
                "redirections or command lists (read the output here, or use a real kubectl with the Share "
                "panel's kubeconfig)\n"
            )
        verb, rest = words[0], words[1:]
        handler = HANDLERS.get(verb)
        if handler is None:
            return _unknown(verb)
        return handler(Command(verb, rest, snapshot, may_write, user, dict(files or {})))
    except UsageError as error:
        command = line.split()[1 if line.strip().startswith("kubectl ") else 0] if line.split() else ""
        if error.examples:
            return ConsoleResult(stderr=f"{error}\nSee 'kubectl {command} -h' for help and examples\n")
        return ConsoleResult(stderr=f"{error}\nSee 'kubectl {command} --help' for usage.\n")
    except CommandError as error:
        return ConsoleResult(stderr=f"{error}\n")
    except NameError_ as error:
        return ConsoleResult(stderr=f"error: {error}\n")
    except status.ApiError as error:
        return ConsoleResult(stderr=f"Error from server ({error.reason or 'Unknown'}): {error.message}\n")


@dataclass(slots=True)
class Command:
    verb: str
    words: list[str]
    snapshot: ApiSnapshot
    may_write: bool
    user: str
    files: dict[str, str] = field(default_factory=dict)

    def parse(self, *flags: Flag) -> Parsed:
        return parse(self.words, flags)

    def namespace(self, parsed: Parsed) -> str:
        return parsed.value("namespace", "default")

    def refuse_write(self, resource: Resource, name: str, verb: str, namespace: str, subresource: str = "") -> None:
        if not self.may_write:
            raise status.forbidden(
                resource, name, self.user, verb, namespace if resource.namespaced else "", subresource
            )


def _unknown(verb: str) -> ConsoleResult:
    close = [known for known in VERBS if _distance(known, verb) <= 2]
    hint = "\n\nDid you mean this?\n" + "".join(f"\t{known}\n" for known in close) if close else "\n"
    return ConsoleResult(stderr=f'error: unknown command "{verb}" for "kubectl"{hint}')


def _distance(a: str, b: str) -> int:
    """Levenshtein distance, as cobra's suggestions use (SuggestionsMinimumDistance 2)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


# ---------------------------------------------------------------------------- get


def get(command: Command) -> ConsoleResult:
    parsed = command.parse(*GET_FLAGS)
    output = parsed.value("output")
    if output not in ("", "wide", "name", "yaml", "json"):
        raise UsageError(
            f'error: unable to match a printer suitable for the output format "{output}", '
            f"allowed formats are: {OUTPUT_FORMATS}"
        )
    if not parsed.args:
        return ConsoleResult(
            stderr='You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of '
            'supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a '
            "detailed description of that resource (e.g. kubectl explain pods).\n"
            "See 'kubectl get -h' for help and examples\n"
        )
    watching = parsed.flag("watch")
    if watching:
        selection_of(parsed)  # one type, selectors that parse: kubectl's errors before the list
    every = parsed.flag("all-namespaces")
    namespace = "" if every else command.namespace(parsed)
    wanted = targets(parsed.args)
    several = len({target.resource for target in wanted}) > 1
    found: list[tuple[Resource, list[Any]]] = []
    errors: list[str] = []
    for resource, names in _grouped(wanted):
        query = reads.ListQuery(
            namespace=namespace, label_selector=parsed.value("selector"), field_selector=parsed.value("field-selector")
        )
        if names:
            objects = []
            for name in names:
                try:
                    objects.append(reads.find(command.snapshot, resource, namespace or "default", name))
                except status.ApiError as error:
                    errors.append(f"Error from server ({error.reason}): {error.message}")
            found.append((resource, objects))
        else:
            found.append((resource, _listed(command.snapshot, resource, query)))
    stdout = _printed(command.snapshot, found, output, parsed, several=several, every=every)
    stderr = "\n".join(errors)
    if not stdout and not errors:
        stderr = "No resources found" + (
            f" in {namespace} namespace." if namespace and any(r.namespaced for r, _ in found) else ""
        )
    if watching and not stdout:
        stderr = ""  # kubectl get -w says nothing of an empty list: it waits for the first change
    return ConsoleResult(stdout=stdout, stderr=stderr + "\n" if stderr else "", watching=watching)


def _listed(snapshot: ApiSnapshot, resource: Resource, query: reads.ListQuery) -> list[Any]:
    """A list, or the API's refusal as kubectl's resource builder words it."""
    try:
        return reads.selected(snapshot, resource, query)
    except status.ApiError as error:
        kind = f"{resource.group}/{resource.version}, Resource={resource.plural}"
        error.message = (
            f'Unable to find "{kind}" that match label selector "{query.label_selector}", field selector '
            f'"{query.field_selector}": {error.message}'
        )
        raise


def _grouped(wanted: list[Target]) -> list[tuple[Resource, list[str]]]:
    groups: dict[Resource, list[str]] = {}
    for target in wanted:
        names = groups.setdefault(target.resource, [])
        if target.name:
            names.append(target.name)
    return list(groups.items())


def _printed(
    snapshot: ApiSnapshot,
    found: list[tuple[Resource, list[Any]]],
    output: str,
    parsed: Parsed,
    *,
    several: bool,
    every: bool,
) -> str:
    if output == "name":
        return "".join(f"{object_name(resource, _name_of(item))}\n" for resource, items in found for item in items)
    if output in ("yaml", "json"):
        manifests = [reads.manifest_of(snapshot, resource, item) for resource, items in found for item in items]
        single = len(manifests) == 1 and all(len(items) <= 1 for _, items in found) and _asked_one(parsed)
        document = (
            manifests[0]
            if single
            else {"apiVersion": "v1", "items": manifests, "kind": "List", "metadata": {"resourceVersion": ""}}
        )
        if output == "json":
            return json.dumps(document, indent=4) + "\n"
        return yaml.safe_dump(document, sort_keys=True, allow_unicode=True)
    blocks = []
    for resource, items in found:
        if not items:
            continue
        table = reads.table_of(snapshot, resource, items)
        options = PrintOptions(
            wide=output == "wide",
            with_namespace=every and resource.namespaced,
            show_labels=parsed.flag("show-labels"),
            with_kind=object_name(resource, "").rstrip("/") if several else "",
            no_headers=parsed.flag("no-headers"),
        )
        blocks.append(table_lines(table, options))
    printed = print_tables(blocks)
    return printed + "\n" if printed else ""


def _asked_one(parsed: Parsed) -> bool:
    """`get pod web-0 -o yaml` prints the object; a type alone (a list) prints a List."""
    return len(parsed.args) == 2 or (len(parsed.args) == 1 and "/" in parsed.args[0])


def _name_of(item: Any) -> str:
    return item.name if hasattr(item, "first") else str(item.metadata.name)


# ---------------------------------------------------------------------------- describe


Describer = Callable[[ApiSnapshot, Any], str]


def _describe_node(snapshot: ApiSnapshot, node: Any) -> str:
    with timestamps_from(snapshot.epoch):  # times as the API serves them (the wall clock)
        return node_text(describe_node(snapshot.cluster, node, snapshot.now))


def _describe_deployment(snapshot: ApiSnapshot, deployment: Any) -> str:
    with timestamps_from(snapshot.epoch):
        return deployment_text(describe_deployment(snapshot.cluster, deployment, snapshot.now))


def _describe_pod(snapshot: ApiSnapshot, pod: Any) -> str:
    return pod_text(snapshot.cluster, pod, snapshot.now, snapshot.epoch)


DESCRIBERS: dict[type, Describer] = {
    Node: _describe_node,
    Deployment: _describe_deployment,
    Pod: _describe_pod,
    # the manifest describers: the object as the API serves it, at the snapshot's moment and epoch
    PodDisruptionBudget: lambda snap, pdb: pod_disruption_budget_text(snap.cluster, pdb, snap.now, snap.epoch),
    ReplicaSet: lambda snap, replica_set: replica_set_text(snap.cluster, replica_set, snap.now, snap.epoch),
    Service: lambda snap, service: service_text(snap.cluster, service, snap.now, snap.epoch),
    DaemonSet: lambda snap, daemon_set: daemon_set_text(snap.cluster, daemon_set, snap.now, snap.epoch),
    StatefulSet: lambda snap, stateful_set: stateful_set_text(snap.cluster, stateful_set, snap.now, snap.epoch),
}


def describe(command: Command) -> ConsoleResult:
    parsed = command.parse(Flag("selector", "l"))
    if not parsed.args:
        return ConsoleResult(
            stderr='error: You must specify the type of resource to describe. Use "kubectl api-resources" for a '
            "complete list of supported resources.\n"
        )
    every = parsed.flag("all-namespaces")
    namespace = "" if every else command.namespace(parsed)
    texts: list[str] = []
    wanted = targets(parsed.args)
    for target in wanted:
        objects = (
            [reads.find(command.snapshot, target.resource, namespace or "default", target.name)]
            if target.name
            else reads.selected(
                command.snapshot,
                target.resource,
                reads.ListQuery(namespace=namespace, label_selector=parsed.value("selector")),
            )
        )
        for obj in objects:
            describer = DESCRIBERS.get(type(obj))
            if describer is None:
                return ConsoleResult(
                    stderr=f"error: describe {target.resource.plural} is not in this console yet (pods, nodes, "
                    "deployments, replicasets, daemonsets, statefulsets, services and poddisruptionbudgets "
                    "are); a real kubectl with the Share panel's kubeconfig describes every kind\n"
                )
            texts.append(describer(command.snapshot, obj))
    if not texts:  # kubectl's note on stderr, as get's
        scoped = namespace and any(target.resource.namespaced for target in wanted)
        return ConsoleResult(stderr="No resources found" + (f" in {namespace} namespace.\n" if scoped else "\n"))
    return ConsoleResult(stdout="\n\n".join(text.rstrip("\n") for text in texts) + "\n")


# ---------------------------------------------------------------------------- writes


def _patched(
    command: Command,
    resource: Resource,
    name: str,
    namespace: str,
    body: Any,
    content_type: str = STRATEGIC,
    subresource: str = "",
) -> ConsoleResult:
    command.refuse_write(resource, name, "patch", namespace, subresource)
    result = write(
        command.snapshot,
        resource,
        WriteRequest("PATCH", namespace if resource.namespaced else "", name, subresource, content_type, body),
    )
    return ConsoleResult(actions=result.actions)


def cordon(command: Command) -> ConsoleResult:
    return _schedulable(command, unschedulable=command.verb == "cordon")


def _schedulable(command: Command, *, unschedulable: bool) -> ConsoleResult:
    parsed = command.parse(Flag("selector", "l"), Flag("dry-run"))
    if not parsed.args:
        raise UsageError("error: USAGE: " + f"{command.verb} NODE [flags]")
    nodes = resolve("nodes")
    lines: list[str] = []
    actions: list[dict[str, Any]] = []
    for name in parsed.args:
        node = reads.find(command.snapshot, nodes, "", name)
        word = "cordoned" if unschedulable else "uncordoned"
        if bool(node.spec.unschedulable) == unschedulable:
            lines.append(f"node/{name} already {word}")
            continue
        actions += _patched(
            command, nodes, name, "", {"spec": {"unschedulable": True if unschedulable else None}}
        ).actions
        lines.append(f"node/{name} {word}")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def taint(command: Command) -> ConsoleResult:
    parsed = command.parse(Flag("overwrite", takes_value=False), Flag("all", takes_value=False), Flag("selector", "l"))
    if len(parsed.args) < 3 or parsed.args[0] not in ("node", "nodes", "no"):
        raise UsageError("error: at least one taint update is required")
    name, specs = parsed.args[1], parsed.args[2:]
    nodes = resolve("nodes")
    node = reads.find(command.snapshot, nodes, "", name)
    taints = [dict(item) for item in command.snapshot.manifest(node).get("spec", {}).get("taints", [])]
    before = [dict(item) for item in taints]
    for spec in specs:
        taints = _taint_change(taints, spec, name, parsed.flag("overwrite"))
    if taints == before:
        return ConsoleResult(stdout=f"node/{name} not tainted\n")
    removed_only = len(taints) < len(before) and all(item in before for item in taints)
    actions = _patched(command, nodes, name, "", {"spec": {"taints": taints or None}}, MERGE).actions
    word = (
        "untainted"
        if removed_only
        else ("modified" if parsed.flag("overwrite") and len(taints) == len(before) else "tainted")
    )
    return ConsoleResult(stdout=f"node/{name} {word}\n", actions=actions)


def _taint_change(taints: list[dict[str, Any]], spec: str, node: str, overwrite: bool) -> list[dict[str, Any]]:
    """One of kubectl taint's arguments: key[=value]:Effect adds, key[:Effect]- removes."""
    if spec.endswith("-"):  # key[=value][:Effect]-: a value may be written, the match ignores it
        key_value, _, effect = spec[:-1].partition(":")
        key = key_value.partition("=")[0]
        kept = [t for t in taints if not (t.get("key") == key and (not effect or t.get("effect") == effect))]
        if len(kept) == len(taints):
            raise CommandError(f'error: taint "{spec[:-1]}" not found')
        return kept
    key_value, colon, effect = spec.rpartition(":")
    key, _, value = key_value.partition("=")
    if not colon or not key or effect not in ("NoSchedule", "PreferNoSchedule", "NoExecute") or ":" in key_value:
        raise UsageError(f"error: invalid taint spec: {spec}", examples=True)
    same = [t for t in taints if t.get("key") == key and t.get("effect") == effect]
    if same and not overwrite:
        raise CommandError(
            f"error: node {node} already has {key} taint(s) with same effect(s) and --overwrite is false"
        )
    added = {"key": key, "effect": effect} | ({"value": value} if value else {})
    return [t for t in taints if t not in same] + [added]


def label(command: Command) -> ConsoleResult:
    parsed = command.parse(Flag("overwrite", takes_value=False), Flag("selector", "l"), Flag("all", takes_value=False))
    words = parsed.args
    changes = [word for word in words if "=" in word or word.endswith("-")]
    named = targets([word for word in words if word not in changes])
    if not changes:
        raise UsageError("error: at least one label update is required")
    lines: list[str] = []
    actions: list[dict[str, Any]] = []
    namespace = command.namespace(parsed)
    for target in named:
        obj = reads.find(command.snapshot, target.resource, namespace, target.name)
        current = dict(obj.metadata.labels)
        patch: dict[str, Any] = {}
        for change in changes:
            if change.endswith("-"):
                key = change[:-1]
                if key not in current:
                    lines.append(f'label "{key}" not found.')
                    continue
                patch[key] = None
            else:
                key, _, value = change.partition("=")
                if key in current and current[key] != value and not parsed.flag("overwrite"):
                    raise CommandError(f"error: '{key}' already has a value ({current[key]}), and --overwrite is false")
                if current.get(key) != value:
                    patch[key] = value
        shown = object_name(target.resource, target.name)
        if not patch:
            lines.append(f"{shown} not labeled")
            continue
        actions += _patched(
            command, target.resource, target.name, namespace, {"metadata": {"labels": patch}}, MERGE
        ).actions
        lines.append(f"{shown} {'unlabeled' if all(value is None for value in patch.values()) else 'labeled'}")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def scale(command: Command) -> ConsoleResult:
    parsed = command.parse(
        Flag("replicas"), Flag("current-replicas"), Flag("selector", "l"), Flag("all", takes_value=False)
    )
    replicas = parsed.value("replicas")
    if not replicas.isdigit():
        raise UsageError("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
    namespace = command.namespace(parsed)
    lines, actions = [], []
    for target in targets(parsed.args):
        try:
            result = _patched(
                command, target.resource, target.name, namespace, {"spec": {"replicas": int(replicas)}}, MERGE, "scale"
            )
        except status.ApiError as error:
            if error.code == 404:
                raise CommandError(f"error: no objects passed to scale {error.message}") from None
            raise
        actions += result.actions
        lines.append(f"{object_name(target.resource, target.name)} scaled")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def set_command(command: Command) -> ConsoleResult:
    sub = command.words[0] if command.words else ""
    if sub == "resources":
        return set_resources(Command("set resources", command.words[1:], *_rest(command)))
    if sub != "image":
        raise UsageError(f'error: unknown command "{" ".join(command.words)}"', examples=True)
    parsed = parse(command.words[1:], ())
    pairs = [word for word in parsed.args if "=" in word]
    named = targets([word for word in parsed.args if "=" not in word])
    namespace = command.namespace(parsed)
    lines, actions = [], []
    for target in named:
        obj = reads.find(command.snapshot, target.resource, namespace, target.name)
        manifest = command.snapshot.manifest(obj)
        template = manifest.get("spec", {}).get("template", {}).get("spec", {})
        containers = template.get("containers", [])
        updated = [dict(container) for container in containers]
        for pair in pairs:
            name, _, image = pair.partition("=")
            matches = [c for c in updated if name in ("*", c.get("name"))]
            if not matches:
                raise CommandError(f'error: unable to find container named "{name}"')
            for container in matches:
                container["image"] = image
        if updated == containers:
            continue
        order = [{"name": c.get("name")} for c in updated]
        body = {
            "spec": {
                "template": {
                    "spec": {
                        "$setElementOrder/containers": order,
                        "containers": [{"name": c.get("name"), "image": c.get("image")} for c in updated],
                    }
                }
            }
        }
        actions += _patched(command, target.resource, target.name, namespace, body).actions
        lines.append(f"{object_name(target.resource, target.name)} image updated")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def _rest(command: Command) -> tuple[ApiSnapshot, bool, str, dict[str, str]]:
    return command.snapshot, command.may_write, command.user, command.files


def set_resources(command: Command) -> ConsoleResult:
    """kubectl set resources: the containers' (-c, every one by default) limits and requests."""
    parsed = command.parse(Flag("containers", "c"), Flag("limits"), Flag("requests"), Flag("selector", "l"))
    wanted = {"limits": _requirements(parsed.value("limits")), "requests": _requirements(parsed.value("requests"))}
    if not wanted["limits"] and not wanted["requests"]:
        raise CommandError(
            "error: you must specify an update to requests or limits (in the form of --requests/--limits)"
        )
    pattern = parsed.value("containers", "*")
    namespace = command.namespace(parsed)
    lines, actions = [], []
    for target in targets(parsed.args):
        obj = reads.find(command.snapshot, target.resource, namespace, target.name)
        manifest = command.snapshot.manifest(obj)
        containers = manifest.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
        chosen = [c for c in containers if fnmatch.fnmatchcase(str(c.get("name", "")), pattern)]
        if not chosen:
            raise CommandError(f"error: unable to find container named {pattern}")
        patched = []
        for container in chosen:
            resources = {
                key: dict(container.get("resources", {}).get(key, {})) | values for key, values in wanted.items()
            }
            patched.append({"name": container.get("name"), "resources": {k: v for k, v in resources.items() if v}})
        order = [{"name": c.get("name")} for c in containers]
        body = {"spec": {"template": {"spec": {"$setElementOrder/containers": order, "containers": patched}}}}
        actions += _patched(command, target.resource, target.name, namespace, body).actions
        lines.append(f"{object_name(target.resource, target.name)} resource requirements updated")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def _requirements(text: str) -> dict[str, str]:
    """ "cpu=200m,memory=512Mi" to a resource list, with kubectl's error for a malformed pair."""
    found: dict[str, str] = {}
    for pair in filter(None, text.split(",")):
        name, equals, amount = pair.partition("=")
        if not equals or not name or not amount:
            raise CommandError(f"error: invalid argument syntax {pair}, expected <resource>=<value>")
        found[name] = amount
    return found


def annotate(command: Command) -> ConsoleResult:
    """kubectl annotate: KEY=VALUE to set, KEY- to remove, --overwrite to change a value."""
    parsed = command.parse(Flag("overwrite", takes_value=False), Flag("selector", "l"), Flag("all", takes_value=False))
    changes = [word for word in parsed.args if "=" in word or word.endswith("-")]
    named = targets([word for word in parsed.args if word not in changes])
    if not changes:
        raise UsageError("error: at least one annotation update is required", examples=True)
    namespace = command.namespace(parsed)
    lines: list[str] = []
    actions: list[dict[str, Any]] = []
    for target in named:
        obj = reads.find(command.snapshot, target.resource, namespace, target.name)
        current = dict(obj.metadata.annotations)
        patch: dict[str, Any] = {}
        for change in changes:
            if change.endswith("-") and "=" not in change:
                patch[change[:-1]] = None
                continue
            key, _, value = change.partition("=")
            if key in current and current[key] != value and not parsed.flag("overwrite"):
                raise CommandError(
                    "error: --overwrite is false but found the following declared annotation(s): "
                    f"'{key}' already has a value ({current[key]})"
                )
            patch[key] = value
        body = {"metadata": {"annotations": patch}}
        actions += _patched(command, target.resource, target.name, namespace, body, MERGE).actions
        lines.append(f"{object_name(target.resource, target.name)} annotated")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def events(command: Command) -> ConsoleResult:
    """kubectl events: the namespace's events (every one with -A) by last seen, repeats on a row."""
    parsed = command.parse(Flag("for"), Flag("types"), Flag("watch", "w", False), Flag("output", "o"))
    everywhere = parsed.flag("all-namespaces")
    namespace = command.namespace(parsed)
    wanted_types = {t.strip().lower() for t in parsed.value("types").split(",") if t.strip()}
    unknown = sorted(t for t in wanted_types if t not in ("normal", "warning"))
    if unknown:
        raise CommandError(f"error: valid --types are Normal or Warning (got {unknown[0]})")
    involved = parsed.value("for")
    kind, name = "", ""
    if involved:
        kind_word, slash, name = involved.partition("/")
        if not slash or not name:
            raise CommandError("error: --for must be in resource/name form")
        kind = resolve(kind_word).kind
    rows = [["NAMESPACE"] if everywhere else []]
    rows[0] = [*rows[0], "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
    listed = kubectl_events(command.snapshot, "" if everywhere else namespace, (kind, name), wanted_types)
    now = command.snapshot.now
    for event in listed:
        last = event.last
        object_kind, _, rest = last.object.partition("/")
        object_name_ = rest.rpartition("/")[2]
        cells = [event.namespace] if everywhere else []
        seen = last_seen(EventRow(event.first, last, event.count, event.message), now)
        cells += [seen, last.type, last.reason, f"{object_kind}/{object_name_}", event.message.strip()]
        rows.append(cells)
    if not listed:
        where = "" if everywhere else f" in {namespace} namespace"
        return ConsoleResult(stderr=f"No events found{where}.\n")
    return ConsoleResult(stdout=print_tables([["\t".join(row) for row in rows]]) + "\n")


def top(command: Command) -> ConsoleResult:
    """kubectl top nodes|pods: the usage the run's model gives at that moment (kubeapi/metrics.py)."""
    sub = command.words[0] if command.words else ""
    flags = (Flag("selector", "l"), Flag("sort-by"), Flag("no-headers", takes_value=False))
    if sub in ("node", "nodes", "no"):
        parsed = parse(command.words[1:], flags)
        stdout, stderr = top_nodes(command.snapshot, parsed, parsed.args)
    elif sub in ("pod", "pods", "po"):
        parsed = parse(command.words[1:], (*flags, Flag("containers", takes_value=False)))
        stdout, stderr = top_pods(command.snapshot, parsed, parsed.args, command.namespace(parsed))
    else:
        raise UsageError(f'error: unknown command "{" ".join(command.words)}"', examples=True)
    return ConsoleResult(stdout=stdout, stderr=stderr)


def edit(command: Command) -> ConsoleResult:
    """kubectl edit TYPE NAME: the page opens the object where the scenario declares it."""
    parsed = command.parse(Flag("output", "o"), Flag("filename", "f"), Flag("selector", "l"))
    named = targets(parsed.args)
    if not named:
        raise CommandError("error: you must provide one or more resources by argument or filename.")
    if len(named) > 1 or not named[0].name:
        raise CommandError("error: the console edits one object at a time: name its type and name")
    target = named[0]
    namespace = command.namespace(parsed) if target.resource.namespaced else ""
    obj = reads.find(command.snapshot, target.resource, namespace, target.name)
    owners: list[str] = []
    current = obj
    while (ref := current.metadata.controller_ref()) is not None and len(owners) < 4:
        owners.append(f"{ref.kind}/{ref.name}")
        owner_resource = BY_KIND.get(ref.kind)
        current = command.snapshot.get(owner_resource, namespace, ref.name) if owner_resource else None
        if current is None:
            break
    return ConsoleResult(edit=EditTarget(target.resource.kind, namespace, target.name, tuple(owners)))


def delete(command: Command) -> ConsoleResult:
    parsed = command.parse(
        Flag("grace-period"),
        Flag("force", takes_value=False),
        Flag("now", takes_value=False),
        Flag("selector", "l"),
        Flag("wait", takes_value=False),
    )
    namespace = command.namespace(parsed)
    grace = int(parsed.value("grace-period")) if parsed.value("grace-period").lstrip("-").isdigit() else None
    if parsed.flag("now"):
        grace = 1
    if parsed.flag("force") and grace == 0:
        grace = 0
    lines, actions = [], []
    for target in targets(parsed.args):
        command.refuse_write(target.resource, target.name, "delete", namespace)
        result = write(
            command.snapshot,
            target.resource,
            WriteRequest("DELETE", namespace if target.resource.namespaced else "", target.name, grace_period=grace),
        )
        actions += result.actions
        kind = object_name(target.resource, "").rstrip("/")
        where = f" from {namespace} namespace" if target.resource.namespaced else ""
        lines.append(f'{kind} "{target.name}" deleted{where}')
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def drain(command: Command) -> ConsoleResult:
    parsed = command.parse(
        Flag("ignore-daemonsets", takes_value=False),
        Flag("delete-emptydir-data", takes_value=False),
        Flag("force", takes_value=False),
        Flag("grace-period"),
        Flag("timeout"),
        Flag("selector", "l"),
    )
    if len(parsed.args) != 1:
        raise UsageError("error: USAGE: drain NODE [flags]")
    name = parsed.args[0]
    nodes = resolve("nodes")
    node = reads.find(command.snapshot, nodes, "", name)
    command.refuse_write(nodes, name, "patch", "")
    cordoned = f"node/{name} {'already cordoned' if node.spec.unschedulable else 'cordoned'}\n"
    evicted, fatal = drain_filters(
        command.snapshot.cluster,
        name,
        ignore_daemonsets=parsed.flag("ignore-daemonsets"),
        delete_emptydir_data=parsed.flag("delete-emptydir-data"),
        force=parsed.flag("force"),
    )
    if fatal:  # kubectl cordons, then refuses: the node stays cordoned and nothing is evicted
        cordon = [] if node.spec.unschedulable else [{"op": "cordon", "target": f"Node/{name}"}]
        joined = fatal[0] if len(fatal) == 1 else "[" + ", ".join(fatal) + "]"
        stderr = (
            f'error: unable to drain node "{name}" due to error: {joined}, continuing command...\n'
            f"There are pending nodes to be drained:\n {name}\n" + "".join(f"{error}\n" for error in fatal)
        )
        return ConsoleResult(stdout=cordoned, stderr=stderr, actions=cordon)
    action: dict[str, Any] = {"op": "drain", "target": f"Node/{name}"}
    if parsed.value("grace-period"):
        action["gracePeriodSeconds"] = int(parsed.value("grace-period"))
    if parsed.value("timeout"):
        action["timeout"] = parsed.value("timeout")
    # What follows (warnings, refusals, evictions, "drained") the run says: the page follows it.
    starting = "".join(f"evicting pod {pod.namespace}/{pod.name}\n" for pod in evicted)
    return ConsoleResult(stdout=cordoned + starting, actions=[action], watching=True)


def apply(command: Command) -> ConsoleResult:
    """apply -f / create -f (scheduler_core/kubectl/apply.py)."""
    parsed = command.parse(
        Flag("filename", "f"),
        Flag("dry-run"),
        Flag("validate"),
        Flag("server-side", takes_value=False),
        Flag("force-conflicts", takes_value=False),
        Flag("field-manager"),
        Flag("save-config", takes_value=False),
    )
    if not parsed.value("filename"):
        raise CommandError("error: must specify one of -f and -k")
    if parsed.args:
        raise UsageError(f"error: Unexpected args: {parsed.args}", examples=True)
    explicit = parsed.value("namespace") or None

    def may_write(resource: Resource, name: str, verb: str, namespace: str) -> None:
        command.refuse_write(resource, name, verb, namespace)

    lines, actions, errors = apply_files(
        command.snapshot,
        command.files,
        [parsed.value("filename")],
        explicit,
        create=command.verb == "create",
        may_write=may_write,
    )
    stdout = "".join(f"{line}\n" for line in lines)
    return ConsoleResult(stdout=stdout, stderr="".join(f"{line}\n" for line in errors), actions=actions)


# ---------------------------------------------------------------------------- rollout


def rollout(command: Command) -> ConsoleResult:
    if not command.words or command.words[0] not in ROLLOUT:
        word = " ".join(command.words)
        raise UsageError(f'error: unknown command "{word}"', examples=True)
    sub = Command(f"rollout {command.words[0]}", command.words[1:], command.snapshot, command.may_write, command.user)
    return ROLLOUT[command.words[0]](sub)


def _deployments(command: Command, parsed: Parsed) -> list[tuple[Resource, Any]]:
    namespace = command.namespace(parsed)
    found = []
    for target in targets(parsed.args):
        if target.resource.kind != "Deployment":
            raise CommandError(
                f"error: no {command.verb.split()[1]} for {target.resource.plural}: the console rolls Deployments"
            )
        found.append((target.resource, reads.find(command.snapshot, target.resource, namespace, target.name)))
    return found


def rollout_status(command: Command) -> ConsoleResult:
    """DeploymentStatusViewer.Status at this moment; unless it is rolled out (or --watch=false),
    the page follows the run, a line at each change of the Deployment, as kubectl waits."""
    parsed = command.parse(Flag("watch", "w"), Flag("timeout"), Flag("revision"))
    lines = []
    for _resource, deployment in _deployments(command, parsed):
        lines.append(_rollout_status(deployment))
    waits = parsed.value("watch", "true").lower() not in ("false", "0") and len(lines) == 1
    return ConsoleResult(stdout="".join(lines), watching=waits and "successfully rolled out" not in lines[0])


def rollout_status_text(deployment: Deployment) -> str:
    """DeploymentStatusViewer.Status: kubectl rollout status's line for the Deployment as it is."""
    return _rollout_status(deployment)


def _rollout_status(deployment: Deployment) -> str:
    name, spec, state = deployment.metadata.name, deployment.spec, deployment.status
    if deployment.generation > state.observed_generation:
        return "Waiting for deployment spec update to be observed...\n"
    progressing = next((c for c in state.conditions if c.type == "Progressing"), None)
    if progressing is not None and progressing.reason == "ProgressDeadlineExceeded":
        raise CommandError(f'error: deployment "{name}" exceeded its progress deadline')
    if state.updated_replicas < spec.replicas:
        return (
            f'Waiting for deployment "{name}" rollout to finish: {state.updated_replicas} out of {spec.replicas} '
            "new replicas have been updated...\n"
        )
    if state.replicas > state.updated_replicas:
        return (
            f'Waiting for deployment "{name}" rollout to finish: {state.replicas - state.updated_replicas} old '
            "replicas are pending termination...\n"
        )
    if state.available_replicas < state.updated_replicas:
        return (
            f'Waiting for deployment "{name}" rollout to finish: {state.available_replicas} of '
            f"{state.updated_replicas} updated replicas are available...\n"
        )
    return f'deployment "{name}" successfully rolled out\n'


def rollout_history(command: Command) -> ConsoleResult:
    parsed = command.parse(Flag("revision"), Flag("output", "o"))
    blocks = []
    for resource, deployment in _deployments(command, parsed):
        rows = sorted(
            (revision(rs) or 0, rs.metadata.annotations.get(CHANGE_CAUSE, "<none>"))
            for rs in _owned(command, deployment)
        )
        table = tabbed("\n".join(["REVISION\tCHANGE-CAUSE", *(f"{number}\t{cause}" for number, cause in rows)]))
        blocks.append(f"{object_name(resource, deployment.metadata.name)} \n{table}\n\n")
    return ConsoleResult(stdout="".join(blocks))


def _owned(command: Command, deployment: Deployment) -> list[ReplicaSet]:
    return [
        rs
        for rs in command.snapshot.cluster.objects(ReplicaSet)
        if rs.metadata.namespace == deployment.metadata.namespace
        and any(ref.uid == deployment.metadata.uid for ref in rs.metadata.owner_references)
    ]


def rollout_pause(command: Command) -> ConsoleResult:
    parsed = command.parse()
    pausing = command.verb.endswith("pause")
    lines, actions = [], []
    for resource, deployment in _deployments(command, parsed):
        shown = object_name(resource, deployment.metadata.name)
        if deployment.spec.paused == pausing:
            raise CommandError(
                f'error: {qualified(resource)} "{deployment.metadata.name}" is '
                f"{'already paused' if pausing else 'not paused'}"
            )
        command.refuse_write(resource, deployment.metadata.name, "patch", deployment.metadata.namespace)
        actions.append({"op": "pause" if pausing else "resume", "target": f"Deployment/{deployment.metadata.key}"})
        lines.append(f"{shown} {'paused' if pausing else 'resumed'}")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def rollout_undo(command: Command) -> ConsoleResult:
    parsed = command.parse(Flag("to-revision"))
    lines, actions = [], []
    for resource, deployment in _deployments(command, parsed):
        command.refuse_write(resource, deployment.metadata.name, "patch", deployment.metadata.namespace)
        action: dict[str, Any] = {"op": "rollout-undo", "target": f"Deployment/{deployment.metadata.key}"}
        if parsed.value("to-revision").isdigit() and int(parsed.value("to-revision")):
            wanted = int(parsed.value("to-revision"))
            if wanted not in {revision(rs) for rs in _owned(command, deployment)}:
                raise CommandError(f"error: unable to find specified revision {wanted} in history")
            action["toRevision"] = wanted
        actions.append(action)
        lines.append(f"{object_name(resource, deployment.metadata.name)} rolled back")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


def rollout_restart(command: Command) -> ConsoleResult:
    parsed = command.parse()
    namespace = command.namespace(parsed)
    lines, actions = [], []
    for resource, deployment in _deployments(command, parsed):
        stamp = format_timestamp(command.snapshot.now)
        body = {"spec": {"template": {"metadata": {"annotations": {RESTARTED_AT: stamp}}}}}
        actions += _patched(command, resource, deployment.metadata.name, namespace, body).actions
        lines.append(f"{object_name(resource, deployment.metadata.name)} restarted")
    return ConsoleResult(stdout="".join(f"{line}\n" for line in lines), actions=actions)


CHANGE_CAUSE = "kubernetes.io/change-cause"
RESTARTED_AT = "kubectl.kubernetes.io/restartedAt"
ROLLOUT: dict[str, Callable[[Command], ConsoleResult]] = {
    "history": rollout_history,
    "pause": rollout_pause,
    "restart": rollout_restart,
    "resume": rollout_pause,
    "status": rollout_status,
    "undo": rollout_undo,
}


# ---------------------------------------------------------------------------- others


def api_resources(command: Command) -> ConsoleResult:
    command.parse(Flag("namespaced"), Flag("api-group"), Flag("output", "o"), Flag("verbs"))
    rows = ["NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND"]
    for resource in sorted(RESOURCES, key=lambda r: (r.group, r.plural)):
        rows.append(
            f"{resource.plural}\t{','.join(resource.short_names)}\t{resource.group_version}\t{str(resource.namespaced).lower()}\t{resource.kind}"
        )
    return ConsoleResult(stdout=print_tables([rows]) + "\n")


def version(command: Command) -> ConsoleResult:
    server = discovery.SERVER_VERSION["gitVersion"]
    return ConsoleResult(
        stdout=f"Client Version: v1.34.5 (the page's console)\nKustomize Version: v5.7.1\nServer Version: {server}\n"
    )


def explain(command: Command) -> ConsoleResult:
    """kubectl explain: the type's schema from the API's OpenAPI documents (scheduler_core/kubectl/explain.py)."""
    explained = explain_type(command.words)
    return ConsoleResult(stdout=explained.stdout, stderr=explained.stderr)


def simulated(command: Command) -> ConsoleResult:
    return ConsoleResult(
        stderr=f"error: kubectl {command.verb} needs a container, and the pods here are simulated: "
        "there is none to reach\n"
    )


HANDLERS: dict[str, Callable[[Command], ConsoleResult]] = {
    "get": get,
    "annotate": annotate,
    "edit": edit,
    "top": top,
    "events": events,
    "apply": apply,
    "create": apply,
    "describe": describe,
    "cordon": cordon,
    "uncordon": cordon,
    "taint": taint,
    "label": label,
    "scale": scale,
    "set": set_command,
    "delete": delete,
    "drain": drain,
    "rollout": rollout,
    "api-resources": api_resources,
    "version": version,
    "explain": explain,
    **{verb: simulated for verb in SIMULATED},
}
