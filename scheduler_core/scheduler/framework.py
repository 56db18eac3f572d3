"""The scheduling framework: statuses, the per-attempt CycleState, and the extension points.

Mirrors pkg/scheduler/framework (interface.go, cycle_state.go). Each extension point is a Protocol;
a plugin implements the ones it needs and the registry finds them by isinstance checks.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from scheduler_core.api.types import Pod

if TYPE_CHECKING:
    from scheduler_core.scheduler.snapshot import NodeInfo, Snapshot

MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0
MAX_TOTAL_SCORE = 2**63 - 1


class Code(IntEnum):
    """Upstream's status codes, in upstream's order."""

    Success = 0
    Error = 1
    Unschedulable = 2
    UnschedulableAndUnresolvable = 3
    Wait = 4
    Skip = 5
    Pending = 6


@dataclass(frozen=True, slots=True)
class Status:
    code: Code = Code.Success
    reasons: tuple[str, ...] = ()
    plugin: str = ""

    @property
    def is_success(self) -> bool:
        return self.code is Code.Success

    @property
    def is_skip(self) -> bool:
        return self.code is Code.Skip

    @property
    def is_rejected(self) -> bool:
        """Unschedulable, UnschedulableAndUnresolvable or Pending."""
        return self.code in (Code.Unschedulable, Code.UnschedulableAndUnresolvable, Code.Pending)

    @property
    def message(self) -> str:
        return ", ".join(self.reasons)

    def with_plugin(self, plugin: str) -> "Status":
        return Status(self.code, self.reasons, plugin)


SUCCESS = Status()
SKIP = Status(Code.Skip)


def unschedulable(*reasons: str) -> Status:
    return Status(Code.Unschedulable, reasons)


def unresolvable(*reasons: str) -> Status:
    return Status(Code.UnschedulableAndUnresolvable, reasons)


def error(message: str) -> Status:
    return Status(Code.Error, (message,))


class SchedulingError(Exception):
    """A plugin failed (not a verdict about the pod): upstream's framework.Error."""


class CycleState:
    """Scratch space for one scheduling attempt of one pod; plugins keep their PreFilter/PreScore results here."""

    __slots__ = ("_data", "skip_filter_plugins", "skip_score_plugins")

    def __init__(self) -> None:
        self._data: dict[str, Any] = {}
        self.skip_filter_plugins: set[str] = set()
        self.skip_score_plugins: set[str] = set()

    def write(self, key: str, value: Any) -> None:
        self._data[key] = value

    def read(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            raise KeyError(f"{key!r} not found in CycleState") from None

    def get(self, key: str) -> Any:
        return self._data.get(key)

    def clone(self) -> "CycleState":
        """Copies for preemption's what-if filtering; each stored state that has clone() is cloned."""
        copy = CycleState()
        copy._data = {key: (value.clone() if hasattr(value, "clone") else value) for key, value in self._data.items()}
        copy.skip_filter_plugins = set(self.skip_filter_plugins)
        copy.skip_score_plugins = set(self.skip_score_plugins)
        return copy


@dataclass(frozen=True, slots=True)
class PreFilterResult:
    """A PreFilter may narrow the nodes to evaluate (NodeAffinity with matchFields metadata.name)."""

    node_names: frozenset[str] | None = None  # None means all nodes


@dataclass(slots=True)
class NodeScore:
    name: str
    score: int


@dataclass(slots=True)
class NodePluginScores:
    """The weighted scores of one node, kept per plugin for explanations."""

    name: str
    scores: dict[str, int] = field(default_factory=dict)  # plugin -> normalized score (before weight)
    total: int = 0


# ---------------------------------------------------------------------------- extension points


class Plugin(Protocol):
    name: str


@runtime_checkable
class QueueSortPlugin(Protocol):
    name: str

    def less(self, a: "QueuedPodInfoLike", b: "QueuedPodInfoLike") -> bool: ...


class QueuedPodInfoLike(Protocol):
    pod: Pod
    timestamp: float


@runtime_checkable
class PreFilterPlugin(Protocol):
    name: str

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence["NodeInfo"]
    ) -> tuple[PreFilterResult | None, Status]: ...


@runtime_checkable
class PreFilterExtensions(Protocol):
    """Incremental updates of PreFilter state when preemption adds or removes pods in a what-if."""

    def add_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_to_add: "PodInfoLike", node: "NodeInfo"
    ) -> Status: ...

    def remove_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_to_remove: "PodInfoLike", node: "NodeInfo"
    ) -> Status: ...


class PodInfoLike(Protocol):
    pod: Pod


@runtime_checkable
class FilterPlugin(Protocol):
    name: str

    def filter(self, state: CycleState, pod: Pod, node: "NodeInfo") -> Status: ...


@runtime_checkable
class PostFilterPlugin(Protocol):
    name: str

    def post_filter(
        self, state: CycleState, pod: Pod, statuses: dict[str, Status]
    ) -> tuple[str | None, Status]: ...  # (nominated node name, status)


@runtime_checkable
class PreScorePlugin(Protocol):
    name: str

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence["NodeInfo"]) -> Status: ...


@runtime_checkable
class ScorePlugin(Protocol):
    name: str

    def score(self, state: CycleState, pod: Pod, node: "NodeInfo") -> tuple[int, Status]: ...


@runtime_checkable
class NormalizeScorePlugin(Protocol):
    """A ScorePlugin whose scores are rescaled to 0..100 after all nodes are scored."""

    name: str

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status: ...


@runtime_checkable
class ReservePlugin(Protocol):
    name: str

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status: ...

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None: ...


@runtime_checkable
class PermitPlugin(Protocol):
    name: str

    def permit(self, state: CycleState, pod: Pod, node_name: str) -> Status: ...


@runtime_checkable
class PreBindPlugin(Protocol):
    """Runs in the binding cycle before Bind (VolumeBinding makes its API writes here). Upstream's
    PreBind blocks until it is done; in the simulation a plugin that must wait for other controllers
    returns Wait and is asked again a second later (it must be idempotent), until it returns anything else."""

    name: str

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status: ...


@runtime_checkable
class BindPlugin(Protocol):
    name: str

    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status: ...


class Handle(Protocol):
    """What plugins may ask of the scheduler: the snapshot of the cluster and the cluster's listers."""

    @property
    def snapshot(self) -> "Snapshot": ...


EXTENSION_POINTS: dict[str, type] = {
    "queueSort": QueueSortPlugin,
    "preFilter": PreFilterPlugin,
    "filter": FilterPlugin,
    "postFilter": PostFilterPlugin,
    "preScore": PreScorePlugin,
    "score": ScorePlugin,
    "reserve": ReservePlugin,
    "permit": PermitPlugin,
    "preBind": PreBindPlugin,
    "bind": BindPlugin,
}
