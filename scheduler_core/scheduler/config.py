"""KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) to profiles.

Defaults and merging follow pkg/scheduler/apis/config/v1 (default_plugins.go, defaults.go): the
default profile enables every in-tree plugin through multiPoint; a user's enabled/disabled lists
are merged into it (mergePluginSet), and "*" disables every default at that point.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.fields import Fields
from scheduler_core.api.yaml_loader import load_documents

API_VERSION = "kubescheduler.config.k8s.io/v1"
CONFIG_DOCUMENT = "KubeSchedulerConfiguration"  # what an error in a configuration names
DEFAULT_SCHEDULER_NAME = "default-scheduler"
DEFAULT_POD_INITIAL_BACKOFF_SECONDS = 1
DEFAULT_POD_MAX_BACKOFF_SECONDS = 10

EXTENSION_POINTS = (
    "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
    "reserve", "permit", "preBind", "bind", "postBind",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PluginRef:
    name: str
    weight: int = 0  # 0 means "not given"
    line: int | None = field(default=None, compare=False)  # where the configuration names it


# default_plugins.go: the order is the order plugins run in at every extension point. DynamicResources
# is inserted before DefaultPreemption because DynamicResourceAllocation is GA (on) in v1.34.
DEFAULT_MULTI_POINT: tuple[PluginRef, ...] = (
    PluginRef("SchedulingGates"),
    PluginRef("PrioritySort"),
    PluginRef("NodeUnschedulable"),
    PluginRef("NodeName"),
    PluginRef("TaintToleration", 3),
    PluginRef("NodeAffinity", 2),
    PluginRef("NodePorts"),
    PluginRef("NodeResourcesFit", 1),
    PluginRef("VolumeRestrictions"),
    PluginRef("NodeVolumeLimits"),
    PluginRef("VolumeBinding"),
    PluginRef("VolumeZone"),
    PluginRef("PodTopologySpread", 2),
    PluginRef("InterPodAffinity", 2),
    PluginRef("DynamicResources"),
    PluginRef("DefaultPreemption"),
    PluginRef("NodeResourcesBalancedAllocation", 1),
    PluginRef("ImageLocality", 1),
    PluginRef("DefaultBinder"),
)

# Each plugin's args when pluginConfig gives none (defaults.go SetDefaults_*Args).
DEFAULT_PLUGIN_ARGS: Mapping[str, Mapping[str, Any]] = {
    "NodeResourcesFit": {
        "scoringStrategy": {
            "type": "LeastAllocated",
            "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}],
        }
    },
    "NodeResourcesBalancedAllocation": {"resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]},
    "PodTopologySpread": {"defaultingType": "System"},
    "InterPodAffinity": {"hardPodAffinityWeight": 1},
    "DefaultPreemption": {"minCandidateNodesPercentage": 10, "minCandidateNodesAbsolute": 100},
    "NodeAffinity": {},
}


@dataclass(frozen=True, slots=True)
class PluginSet:
    enabled: tuple[PluginRef, ...] = ()
    disabled: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Profile:
    scheduler_name: str = DEFAULT_SCHEDULER_NAME
    multi_point: PluginSet = PluginSet(DEFAULT_MULTI_POINT)
    points: Mapping[str, PluginSet] = field(default_factory=dict)  # extension point -> explicit set
    plugin_args: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    percentage_of_nodes_to_score: int | None = None
    # Each pluginConfig item as written (a marked mapping: its keys' lines), by plugin name.
    plugin_config_items: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False)

    def plugin_line(self, name: str) -> int | None:
        """The line naming the plugin in the profile's plugins (None for a default one)."""
        for plugin_set in (self.multi_point, *self.points.values()):
            for ref in plugin_set.enabled:
                if ref.name == name and ref.line is not None:
                    return ref.line
        return None

    def line_of(self, path: str) -> int | None:
        """The line of a `pluginConfig[Name].args.some.field` path: its deepest key the item has.
        Plugins check their args when a framework is built, after parsing; this finds where."""
        if not path.startswith("pluginConfig["):
            return None
        name, _, rest = path[len("pluginConfig[") :].partition("]")
        node: Any = self.plugin_config_items.get(name)
        line = getattr(node, "line", None)
        for key in (part for part in rest.split(".") if part):
            key_lines = getattr(node, "key_lines", None)
            if not isinstance(node, Mapping) or key_lines is None or key not in key_lines:
                break
            line, node = key_lines[key], node[key]
        return line

    def args_for(self, plugin: str) -> Mapping[str, Any]:
        if plugin in self.plugin_args:
            return merge_args(DEFAULT_PLUGIN_ARGS.get(plugin, {}), self.plugin_args[plugin])
        return DEFAULT_PLUGIN_ARGS.get(plugin, {})


@dataclass(frozen=True, slots=True)
class SchedulerConfiguration:
    profiles: tuple[Profile, ...] = (Profile(),)
    percentage_of_nodes_to_score: int = 0  # 0: adaptive
    pod_initial_backoff_seconds: int = DEFAULT_POD_INITIAL_BACKOFF_SECONDS
    pod_max_backoff_seconds: int = DEFAULT_POD_MAX_BACKOFF_SECONDS

    def profile_for(self, scheduler_name: str) -> Profile | None:
        return next((p for p in self.profiles if p.scheduler_name == scheduler_name), None)


def merge_args(defaults: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Fields the user leaves out keep their defaults (one level deep, as SetDefaults_* do)."""
    merged = dict(defaults)
    merged.update({key: value for key, value in given.items() if value is not None})
    return merged


def merge_plugin_set(defaults: PluginSet, custom: PluginSet) -> PluginSet:
    """mergePluginSet: defaults keep their order, a re-configured default is updated in place,
    other custom plugins are appended; a disabled name (or "*") removes defaults."""
    disabled = set(custom.disabled) | set(defaults.disabled)
    custom_by_name = {ref.name: index for index, ref in enumerate(custom.enabled)}
    replaced: set[int] = set()
    enabled: list[PluginRef] = []
    if "*" not in disabled:
        for ref in defaults.enabled:
            if ref.name in disabled:
                continue
            if ref.name in custom_by_name:
                index = custom_by_name[ref.name]
                ref = custom.enabled[index]
                replaced.add(index)
            enabled.append(ref)
    enabled.extend(ref for index, ref in enumerate(custom.enabled) if index not in replaced)
    return PluginSet(tuple(enabled), tuple(custom.disabled) + tuple(defaults.disabled))


def _plugin_set(fields: Fields | None) -> PluginSet:
    if fields is None:
        return PluginSet()
    fields.reject_unknown({"enabled", "disabled"})
    enabled = []
    for item in fields.objects("enabled"):
        item.reject_unknown({"name", "weight"})
        name = item.string("name")
        if not name:
            raise item.error("name", "Required value")
        weight = item.int32("weight", "Plugin", 0, minimum=0) or 0
        enabled.append(PluginRef(name, weight, item.line_of("name")))
    disabled = []
    for item in fields.objects("disabled"):
        item.reject_unknown({"name"})
        name = item.string("name")
        if not name:
            raise item.error("name", "Required value")
        disabled.append(name)
    return PluginSet(tuple(enabled), tuple(disabled))


def _percentage(fields: Fields, key: str) -> int | None:
    value = fields.integer(key)
    if value is not None and not 0 <= value <= 100:
        raise fields.error(key, f"Invalid value: {value}: not in valid range [0-100]")
    return value


def parse_profile(fields: Fields) -> Profile:
    fields.reject_unknown({"schedulerName", "plugins", "pluginConfig", "percentageOfNodesToScore"})
    plugins = fields.object("plugins")
    custom_multi_point = PluginSet()
    points: dict[str, PluginSet] = {}
    if plugins is not None:
        plugins.reject_unknown({"multiPoint", *EXTENSION_POINTS})
        custom_multi_point = _plugin_set(plugins.object("multiPoint"))
        for point in EXTENSION_POINTS:
            plugin_set = _plugin_set(plugins.object(point))
            if plugin_set.enabled or plugin_set.disabled:
                points[point] = plugin_set
    plugin_args: dict[str, Mapping[str, Any]] = {}
    items: dict[str, Mapping[str, Any]] = {}
    for item in fields.objects("pluginConfig"):
        item.reject_unknown({"name", "args"})
        name = item.string("name")
        if not name:
            raise item.error("name", "Required value")
        if name in plugin_args:
            raise item.error("name", f'Duplicate value: "{name}"')
        args = item.object("args")
        plugin_args[name] = dict(args.data) if args is not None else {}
        items[name] = item.data
    return Profile(
        scheduler_name=fields.string("schedulerName") or DEFAULT_SCHEDULER_NAME,
        multi_point=merge_plugin_set(PluginSet(DEFAULT_MULTI_POINT), custom_multi_point),
        points=points,
        plugin_args=plugin_args,
        percentage_of_nodes_to_score=_percentage(fields, "percentageOfNodesToScore"),
        plugin_config_items=items,
    )


def parse_configuration(text: str, source: str = "config") -> SchedulerConfiguration:
    documents = load_documents(text, source)
    if len(documents) != 1:
        raise ManifestError(source, "", "expected exactly one KubeSchedulerConfiguration document")
    data = documents[0].data
    if not isinstance(data, Mapping):
        raise ManifestError(source, "", "must be a mapping", documents[0].line)
    fields = Fields(data, "", CONFIG_DOCUMENT, documents[0].line)
    fields.reject_unknown(
        {
            "apiVersion", "kind", "profiles", "percentageOfNodesToScore", "podInitialBackoffSeconds",
            "podMaxBackoffSeconds", "parallelism", "leaderElection", "clientConnection", "extenders",
            "delayCacheUntilActive",
        }
    )  # fmt: skip
    if fields.string("kind") != "KubeSchedulerConfiguration":
        raise fields.error("kind", 'must be "KubeSchedulerConfiguration"')
    if fields.string("apiVersion") != API_VERSION:
        raise fields.error("apiVersion", f'must be "{API_VERSION}"')
    profiles = tuple(parse_profile(item) for item in fields.objects("profiles")) or (Profile(),)
    names = [profile.scheduler_name for profile in profiles]
    for name in names:
        if names.count(name) > 1:
            raise fields.error("profiles", f'Duplicate value: schedulerName "{name}"')
    initial = fields.integer("podInitialBackoffSeconds", DEFAULT_POD_INITIAL_BACKOFF_SECONDS, minimum=1)
    maximum = fields.integer("podMaxBackoffSeconds", DEFAULT_POD_MAX_BACKOFF_SECONDS, minimum=1)
    assert initial is not None and maximum is not None
    if maximum < initial:
        raise fields.error("podMaxBackoffSeconds", "must be greater than or equal to podInitialBackoffSeconds")
    return SchedulerConfiguration(
        profiles=profiles,
        percentage_of_nodes_to_score=_percentage(fields, "percentageOfNodesToScore") or 0,
        pod_initial_backoff_seconds=initial,
        pod_max_backoff_seconds=maximum,
    )
