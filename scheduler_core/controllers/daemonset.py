"""The DaemonSet controller (pkg/controller/daemon): one pod per eligible node.

Since v1.12 daemon pods go through the default scheduler: each new pod gets a required node
affinity on `metadata.name In [node]` (ReplaceDaemonSetPodNodeNameNodeAffinity) and the tolerations
every daemon pod carries (AddOrUpdateDaemonPodTolerations). A node is eligible when the pod would
fit it by nodeName, nodeSelector/required node affinity and taints (nodeShouldRunDaemonPod's
predicates): an untolerated NoSchedule taint keeps new pods off but lets a running one stay, an
untolerated NoExecute taint removes it. Added, relabelled and retainted nodes are reconsidered.

Updates follow spec.updateStrategy: RollingUpdate replaces pods whose controller-revision-hash
differs from the template's, within maxUnavailable (delete first) or maxSurge (create first);
OnDelete waits for the user. Failed daemon pods are deleted (with a per-node backoff) and replaced.
"""

from dataclasses import replace

from scheduler_core.api.node_conditions import TAINT_NODE_MEMORY_PRESSURE
from scheduler_core.api.pod_conditions import TERMINAL_PHASES, is_pod_available
from scheduler_core.api.selectors import node_selector_map_matches, node_selector_matches
from scheduler_core.api.types import (
    NO_EXECUTE,
    NO_SCHEDULE,
    Affinity,
    Node,
    NodeAffinity,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    PodSpec,
    Taint,
    Toleration,
    tolerates_taint,
)
from scheduler_core.api.workloads import DaemonSet, DaemonSetStatus, PodTemplateSpec
from scheduler_core.controllers.base import Context, record
from scheduler_core.controllers.controller_kit import (
    DelayingQueue,
    OwnerIndex,
    collect_pods,
    controller_ref,
    create_pod,
    delete_owned_pod,
    scaled_value,
    slow_start,
)
from scheduler_core.controllers.naming import template_hash
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "daemonset"
SOURCE = "daemonset-controller"
KIND = "DaemonSet"
API_VERSION = "apps/v1"

# apps/v1 label and annotation keys.
CONTROLLER_REVISION_HASH_LABEL = "controller-revision-hash"  # DefaultDaemonSetUniqueLabelKey
TEMPLATE_GENERATION_LABEL = "pod-template-generation"  # DaemonSetTemplateGenerationKey
OBJECT_NAME_FIELD = "metadata.name"

# Well-known taints (k8s.io/api/core/v1) that daemon pods tolerate.
TAINT_NODE_NOT_READY = "node.kubernetes.io/not-ready"
TAINT_NODE_UNREACHABLE = "node.kubernetes.io/unreachable"
TAINT_NODE_DISK_PRESSURE = "node.kubernetes.io/disk-pressure"
TAINT_NODE_PID_PRESSURE = "node.kubernetes.io/pid-pressure"
TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable"
TAINT_NODE_NETWORK_UNAVAILABLE = "node.kubernetes.io/network-unavailable"

# Event reasons and messages (daemon_controller.go).
SELECTING_ALL_REASON = "SelectingAll"
SELECTING_ALL_MESSAGE = "This daemon set is selecting all pods. A non-empty selector is required."
FAILED_DAEMON_POD_REASON = "FailedDaemonPod"
FAILED_DAEMON_POD_MESSAGE = "Found failed daemon pod {}/{} on node {}, will try to kill it"
SUCCEEDED_DAEMON_POD_REASON = "SucceededDaemonPod"
SUCCEEDED_DAEMON_POD_MESSAGE = "Found succeeded daemon pod {}/{} on node {}, will try to delete it"

BURST_REPLICAS = 250
# kube-controller-manager's failedPodsBackoff: flowcontrol.NewBackOff(1s, 15m).
FAILED_PODS_BACKOFF_INITIAL = 1.0
FAILED_PODS_BACKOFF_MAX = 15 * 60.0

Eligibility = tuple[bool, bool]  # (shouldRun, shouldContinueRunning)


# ---------------------------------------------------------------------------- pod shaping


def _matches_toleration(a: Toleration, b: Toleration) -> bool:
    """Toleration.MatchToleration: same key, effect, operator and value."""
    return a.key == b.key and a.effect == b.effect and a.operator == b.operator and a.value == b.value


def _add_or_update_toleration(tolerations: list[Toleration], toleration: Toleration) -> None:
    """v1helper.AddOrUpdateTolerationInPodSpec."""
    for index, existing in enumerate(tolerations):
        if _matches_toleration(toleration, existing):
            tolerations[index] = toleration
            return
    tolerations.append(toleration)


def daemon_pod_tolerations(spec: PodSpec) -> tuple[Toleration, ...]:
    """util.AddOrUpdateDaemonPodTolerations: daemon pods survive node problems (not-ready and
    unreachable NoExecute, without tolerationSeconds) and the TaintNodesByCondition taints."""
    tolerations = list(spec.tolerations)
    for key, effect in (
        (TAINT_NODE_NOT_READY, NO_EXECUTE),
        (TAINT_NODE_UNREACHABLE, NO_EXECUTE),
        (TAINT_NODE_DISK_PRESSURE, NO_SCHEDULE),
        (TAINT_NODE_MEMORY_PRESSURE, NO_SCHEDULE),
        (TAINT_NODE_PID_PRESSURE, NO_SCHEDULE),
        (TAINT_NODE_UNSCHEDULABLE, NO_SCHEDULE),
    ):
        _add_or_update_toleration(tolerations, Toleration(key=key, operator="Exists", effect=effect))
    if spec.host_network:
        toleration = Toleration(key=TAINT_NODE_NETWORK_UNAVAILABLE, operator="Exists", effect=NO_SCHEDULE)
        _add_or_update_toleration(tolerations, toleration)
    return tuple(tolerations)


def replace_node_name_affinity(affinity: Affinity | None, node_name: str) -> Affinity:
    """util.ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes a single
    term selecting the node by name; preferred terms and pod (anti-)affinity are kept."""
    term = NodeSelectorTerm(match_fields=(NodeSelectorRequirement(OBJECT_NAME_FIELD, "In", (node_name,)),))
    selector = NodeSelector(node_selector_terms=(term,))
    if affinity is None:
        return Affinity(node_affinity=NodeAffinity(required=selector))
    if affinity.node_affinity is None:
        return replace(affinity, node_affinity=NodeAffinity(required=selector))
    return replace(affinity, node_affinity=replace(affinity.node_affinity, required=selector))


def target_node_name(pod: Pod) -> str | None:
    """util.GetTargetNodeName: the bound node, else the node the name affinity asks for."""
    if pod.spec.node_name:
        return pod.spec.node_name
    affinity = pod.spec.affinity
    node_affinity = affinity.node_affinity if affinity is not None else None
    required = node_affinity.required if node_affinity is not None else None
    if required is None:
        return None
    for term in required.node_selector_terms:
        for requirement in term.match_fields:
            if requirement.key == OBJECT_NAME_FIELD and requirement.operator == "In":
                return requirement.values[0] if len(requirement.values) == 1 else None
    return None


def _untolerated(taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...], effects: tuple[str, ...]) -> bool:
    return any(taint.effect in effects and not tolerates_taint(tolerations, taint) for taint in taints)


def node_should_run_daemon_pod(
    node: Node, ds: DaemonSet, tolerations: tuple[Toleration, ...] | None = None
) -> tuple[bool, bool]:
    """NodeShouldRunDaemonPod: (shouldRun, shouldContinueRunning) for a daemon pod on the node.
    `tolerations` are the template's daemon_pod_tolerations, when already computed."""
    spec = ds.spec.template.spec
    if spec.node_name and spec.node_name != node.name:
        return False, False
    if spec.node_selector and not node_selector_map_matches(spec.node_selector, node.labels):
        return False, False
    node_affinity = spec.affinity.node_affinity if spec.affinity is not None else None
    required = node_affinity.required if node_affinity is not None else None
    if required is not None and not node_selector_matches(required, node.name, node.labels):
        return False, False
    if tolerations is None:
        tolerations = daemon_pod_tolerations(spec)
    taints = node.spec.taints
    if _untolerated(taints, tolerations, (NO_SCHEDULE, NO_EXECUTE)):
        # A pod already running may stay unless a NoExecute taint evicts it.
        return False, not _untolerated(taints, tolerations, (NO_EXECUTE,))
    return True, True


def _by_creation_and_phase(pod: Pod) -> tuple[bool, float, str]:
    """podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name."""
    return (not pod.spec.node_name, pod.metadata.creation_timestamp, pod.name)


# ---------------------------------------------------------------------------- the controller


class DaemonSetController:
    name = NAME
    watch_kinds = frozenset({"Pod", "Node", KIND})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.queue = DelayingQueue(ctx, "sync daemonset")
        self.pods = OwnerIndex(KIND)
        self._keys_by_uid: dict[str, str] = {}
        # The API server's spec.templateGeneration (the deprecated.daemonset.template.generation
        # annotation in apps/v1): 1 at creation, bumped on every template change.
        self._template_generation: dict[str, tuple[PodTemplateSpec, int]] = {}
        self._failed_backoff: dict[str, tuple[float, float]] = {}  # key -> (delay, last update)
        self._orphans: list[str] = []  # pods of deleted DaemonSets, for the garbage collector
        # Per DaemonSet: the template spec the entries were computed for, its daemon tolerations,
        # and node name -> (the Node object, its (shouldRun, shouldContinueRunning)). Objects are
        # immutable, so an entry holds while the node and the template are the same objects.
        self._eligibility: dict[str, tuple[PodSpec, tuple[Toleration, ...], dict[str, tuple[Node, Eligibility]]]] = {}

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            self._on_pod(pod_change)
        elif (node_change := change.of(Node)) is not None:
            self._on_node(node_change)
        elif (daemon_set_change := change.of(DaemonSet)) is not None:
            self._on_daemon_set(daemon_set_change)

    def _on_daemon_set(self, change: Change[DaemonSet]) -> None:
        if change.type is ChangeType.DELETED:
            uid = change.previous.metadata.uid
            self._keys_by_uid.pop(uid, None)
            self._template_generation.pop(uid, None)
            self._eligibility.pop(uid, None)
            self._orphans.extend(self.pods.forget(uid))
            return
        ds = change.latest
        uid = ds.metadata.uid
        self._keys_by_uid[uid] = change.key
        known = self._template_generation.get(uid)
        if known is None:
            self._template_generation[uid] = (ds.spec.template, 1)
        elif known[0] != ds.spec.template:
            self._template_generation[uid] = (ds.spec.template, known[1] + 1)
        self.queue.add(change.key)

    def _on_pod(self, change: Change[Pod]) -> None:
        old: Pod | None = change.old
        new: Pod | None = change.new
        before, after = self.pods.observe(change)
        if before is not None and before != after:
            self._enqueue_uid(before)
        if after is None:
            return
        key = self._enqueue_uid(after)
        if key is None or new is None or old is None:
            return
        if new.status.ready and not old.status.ready:
            ds = self.ctx.cluster.get(DaemonSet, key)
            if ds is not None and ds.spec.min_ready_seconds > 0:
                # Add a second to avoid milliseconds skew, as upstream does.
                self.queue.add_after(key, ds.spec.min_ready_seconds + 1.0)

    def _available(self, pod: Pod, min_ready_seconds: int) -> bool:
        """podutil.IsPodAvailable as the DaemonSet controller calls it: a Running pod, Ready for
        longer than minReadySeconds (it looks again a second after)."""
        return pod.status.phase == "Running" and is_pod_available(pod, min_ready_seconds, self.ctx.now, strict=True)

    def _enqueue_uid(self, uid: str) -> str | None:
        """A pod of the set changed: sync it once the instant's burst of pod changes is over."""
        key = self._keys_by_uid.get(uid)
        if key is not None:
            self.queue.add_coalesced(key)
        return key

    def _on_node(self, change: Change[Node]) -> None:
        daemon_sets: list[DaemonSet] = self.ctx.cluster.objects(DaemonSet)
        if change.type is ChangeType.ADDED:
            for ds in daemon_sets:
                if self._should_run(change.latest, ds)[0]:
                    self.queue.add(ds.metadata.key)
        elif change.type is ChangeType.MODIFIED:
            old, new = change.previous, change.latest
            if old.labels == new.labels and old.spec == new.spec:
                return  # shouldIgnoreNodeUpdate: only status changed
            for ds in daemon_sets:
                if node_should_run_daemon_pod(old, ds, self._tolerations(ds)) != self._should_run(new, ds):
                    self.queue.add(ds.metadata.key)
        else:
            # Upstream leaves this to the pod garbage collector's deletions; the counts must follow.
            for ds in daemon_sets:
                self._eligibility.get(ds.metadata.uid, (None, (), {}))[2].pop(change.key, None)
                self.queue.add(ds.metadata.key)

    def _tolerations(self, ds: DaemonSet) -> tuple[Toleration, ...]:
        return self._eligibility_entry(ds)[1]

    def _eligibility_entry(
        self, ds: DaemonSet
    ) -> tuple[PodSpec, tuple[Toleration, ...], dict[str, tuple[Node, Eligibility]]]:
        spec = ds.spec.template.spec
        entry = self._eligibility.get(ds.metadata.uid)
        if entry is None or entry[0] is not spec:
            entry = (spec, daemon_pod_tolerations(spec), {})
            self._eligibility[ds.metadata.uid] = entry
        return entry

    def _should_run(self, node: Node, ds: DaemonSet) -> Eligibility:
        """node_should_run_daemon_pod, remembered while the node and the template stay the same."""
        _, tolerations, nodes = self._eligibility_entry(ds)
        known = nodes.get(node.name)
        if known is not None and known[0] is node:
            return known[1]
        result = node_should_run_daemon_pod(node, ds, tolerations)
        nodes[node.name] = (node, result)
        return result

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        orphans, self._orphans = self._orphans, []
        collect_pods(self.ctx, orphans)
        keys = self.queue.take()
        for key in keys:
            self._sync_daemon_set(key)
        return bool(orphans or keys)

    def _sync_daemon_set(self, key: str) -> None:
        ds: DaemonSet | None = self.ctx.cluster.get(DaemonSet, key)
        if ds is None or ds.metadata.deletion_timestamp is not None:
            self.queue.forget(key)
            return
        if ds.spec.selector.is_empty:
            record(self.ctx, ds, SELECTING_ALL_REASON, SELECTING_ALL_MESSAGE, warning=True, source=SOURCE)
            self.queue.forget(key)
            return
        nodes: list[Node] = self.ctx.cluster.objects(Node)
        hash_ = template_hash(ds.spec.template)
        ok = self._manage(ds, nodes, hash_)
        if ok and ds.spec.update_strategy_type == "RollingUpdate":
            ok = self._rolling_update(ds, nodes, hash_)
        self._update_status(ds, nodes, hash_)
        if ok:
            self.queue.forget(key)
        else:
            self.queue.add_rate_limited(key)  # a refused create is retried with backoff

    def _template_generation_of(self, ds: DaemonSet) -> int:
        known = self._template_generation.get(ds.metadata.uid)
        return known[1] if known is not None else 1

    def _node_to_daemon_pods(self, ds: DaemonSet) -> dict[str, list[Pod]]:
        """getNodesToDaemonPods: the set's pods by target node, leaving out deleted finished ones."""
        result: dict[str, list[Pod]] = {}
        for key in self.pods.keys(ds.metadata.uid):
            pod: Pod | None = self.ctx.cluster.get(Pod, key)
            if pod is None:
                continue
            if pod.status.phase in TERMINAL_PHASES and pod.metadata.deletion_timestamp is not None:
                continue
            node_name = target_node_name(pod)
            if node_name is not None:
                result.setdefault(node_name, []).append(pod)
        return result

    @staticmethod
    def _is_updated(pod: Pod, hash_: str) -> bool:
        # util.IsPodUpdated also compares pod-template-generation, but formats the generation
        # pointer rather than its value, so upstream only ever matches on the hash.
        return pod.labels.get(CONTROLLER_REVISION_HASH_LABEL) == hash_

    @staticmethod
    def _allows_surge(ds: DaemonSet) -> bool:
        return ds.spec.update_strategy_type == "RollingUpdate" and scaled_value(ds.spec.max_surge, 1, round_up=True) > 0

    # ------------------------------------------------------------------ manage

    def _manage(self, ds: DaemonSet, nodes: list[Node], hash_: str) -> bool:
        node_to_pods = self._node_to_daemon_pods(ds)
        to_create: list[str] = []
        to_delete: list[Pod] = []
        for node in nodes:
            create, delete = self._pods_should_be_on_node(node, node_to_pods, ds, hash_)
            to_create.extend(create)
            to_delete.extend(delete)
        # Unscheduled pods meant for nodes that no longer exist: nothing else would remove them.
        present = {node.name for node in nodes}
        for node_name, pods in node_to_pods.items():
            if node_name not in present:
                to_delete.extend(pod for pod in pods if not pod.spec.node_name)
        return self._sync_nodes(ds, to_delete, to_create, hash_)

    def _pods_should_be_on_node(
        self, node: Node, node_to_pods: dict[str, list[Pod]], ds: DaemonSet, hash_: str
    ) -> tuple[list[str], list[Pod]]:
        should_run, should_continue_running = self._should_run(node, ds)
        daemon_pods = node_to_pods.get(node.name)
        create: list[str] = []
        delete: list[Pod] = []
        if should_run and daemon_pods is None:
            create.append(node.name)
        elif should_continue_running:
            running: list[Pod] = []
            for pod in daemon_pods or ():
                if pod.metadata.deletion_timestamp is not None:
                    continue
                if pod.status.phase == "Failed":
                    if self._delete_failed_pod_allowed(ds, node.name):
                        message = FAILED_DAEMON_POD_MESSAGE.format(pod.namespace, pod.name, node.name)
                        record(self.ctx, ds, FAILED_DAEMON_POD_REASON, message, warning=True, source=SOURCE)
                        delete.append(pod)
                elif pod.status.phase == "Succeeded":
                    message = SUCCEEDED_DAEMON_POD_MESSAGE.format(pod.namespace, pod.name, node.name)
                    record(self.ctx, ds, SUCCEEDED_DAEMON_POD_REASON, message, source=SOURCE)
                    delete.append(pod)
                else:
                    running.append(pod)
            running.sort(key=_by_creation_and_phase)
            if not self._allows_surge(ds):
                # Without surge, one pod per node: all but the oldest go.
                delete.extend(running[1:])
            elif len(running) <= 1:
                if not running and should_run:
                    create.append(node.name)
            else:
                # With surge, an old and a new pod may overlap until the new one is available.
                oldest_new: Pod | None = None
                oldest_old: Pod | None = None
                for pod in running:
                    if self._is_updated(pod, hash_):
                        if oldest_new is None:
                            oldest_new = pod
                            continue
                    elif oldest_old is None:
                        oldest_old = pod
                        continue
                    delete.append(pod)
                if (
                    oldest_new is not None
                    and oldest_old is not None
                    and (not oldest_old.status.ready or self._available(oldest_new, ds.spec.min_ready_seconds))
                ):
                    delete.append(oldest_old)
        elif daemon_pods is not None:
            # Not supposed to run here (and not allowed to stay): every pod on the node goes.
            delete.extend(pod for pod in daemon_pods if pod.metadata.deletion_timestamp is None)
        return create, delete

    def _delete_failed_pod_allowed(self, ds: DaemonSet, node_name: str) -> bool:
        """failedPodsBackoff: a failed pod on a node is killed at most once per backoff period
        (1 s doubling to 15 min); within it the set is synced again when the period ends. The
        period is kept per status.observedGeneration (failedPodsBackoffKey), the generation the
        last status write saw: a new template starts a new backoff once a sync has observed it."""
        key = f"{ds.metadata.uid}/{ds.status.observed_generation}/{node_name}"
        now = self.ctx.now
        entry = self._failed_backoff.get(key)
        if entry is not None and now - entry[1] < entry[0]:
            self.queue.add_after(ds.metadata.key, entry[0])
            return False
        if entry is None or now - entry[1] > 2 * FAILED_PODS_BACKOFF_MAX:
            delay = FAILED_PODS_BACKOFF_INITIAL
        else:
            delay = min(entry[0] * 2, FAILED_PODS_BACKOFF_MAX)
        self._failed_backoff[key] = (delay, now)
        return True

    def _sync_nodes(self, ds: DaemonSet, to_delete: list[Pod], to_create: list[str], hash_: str) -> bool:
        """syncNodes: create pods for nodes (in slow-start batches), then delete pods. Returns
        whether every create went through."""
        to_create = to_create[:BURST_REPLICAS]
        to_delete = to_delete[:BURST_REPLICAS]
        template = ds.spec.template
        labels = dict(template.labels)
        labels[TEMPLATE_GENERATION_LABEL] = str(self._template_generation_of(ds))
        labels[CONTROLLER_REVISION_HASH_LABEL] = hash_
        base_spec = replace(template.spec, tolerations=self._tolerations(ds))
        ref = controller_ref(KIND, API_VERSION, ds)

        def create_one(index: int) -> bool:
            spec = replace(base_spec, affinity=replace_node_name_affinity(base_spec.affinity, to_create[index]))
            pod = create_pod(
                self.ctx,
                ds,
                ref,
                prefix=f"{ds.metadata.name}-",
                labels=labels,
                annotations=dict(template.annotations),
                spec=spec,
                source=SOURCE,
            )
            return pod is not None

        made = slow_start(len(to_create), create_one)
        for pod in to_delete:
            delete_owned_pod(self.ctx, ds, pod, source=SOURCE)
        return made == len(to_create)

    # ------------------------------------------------------------------ rolling update

    def _desired_counts(
        self, ds: DaemonSet, nodes: list[Node], node_to_pods: dict[str, list[Pod]]
    ) -> tuple[int, int, int, dict[str, Node]]:
        """updatedDesiredNodeCounts: maxSurge, maxUnavailable and the desired count; nodes that
        should run a pod but have none get an empty entry."""
        desired = 0
        by_name: dict[str, Node] = {}
        for node in nodes:
            by_name[node.name] = node
            if not self._should_run(node, ds)[0]:
                continue
            desired += 1
            node_to_pods.setdefault(node.name, [])
        rolling = ds.spec.update_strategy_type == "RollingUpdate"
        max_unavailable = scaled_value(ds.spec.max_unavailable, desired, round_up=True) if rolling else 0
        max_surge = scaled_value(ds.spec.max_surge, desired, round_up=True) if rolling else 0
        if desired > 0 and max_unavailable == 0 and max_surge == 0:
            max_unavailable = 1  # an impossible configuration falls back to one unavailable pod
        return max_surge, max_unavailable, desired, by_name

    def _split_on_node(self, pods: list[Pod], hash_: str) -> tuple[Pod | None, Pod | None, bool]:
        """findUpdatedPodsOnNode: the (new, old) live pods on a node, or False if more than one of either."""
        new_pod: Pod | None = None
        old_pod: Pod | None = None
        for pod in pods:
            if pod.metadata.deletion_timestamp is not None:
                continue
            if self._is_updated(pod, hash_):
                if new_pod is not None:
                    return None, None, False
                new_pod = pod
            else:
                if old_pod is not None:
                    return None, None, False
                old_pod = pod
        return new_pod, old_pod, True

    def _rolling_update(self, ds: DaemonSet, nodes: list[Node], hash_: str) -> bool:
        node_to_pods = self._node_to_daemon_pods(ds)
        max_surge, max_unavailable, desired, by_name = self._desired_counts(ds, nodes, node_to_pods)
        min_ready = ds.spec.min_ready_seconds
        # Upstream walks a Go map (random order); nodes are taken by name here, for replayability.
        ordered = sorted(node_to_pods.items())
        if max_surge == 0:
            # Delete just enough old pods to stay within maxUnavailable; manage recreates them.
            unavailable = 0
            replacements: list[Pod] = []
            candidates: list[Pod] = []
            for _node_name, pods in ordered:
                new_pod, old_pod, ok = self._split_on_node(pods, hash_)
                if not ok:
                    unavailable += 1  # excess pods: the manage loop prunes them first
                    continue
                if (old_pod is None) == (new_pod is None):
                    unavailable += 1
                elif new_pod is not None:
                    if not self._available(new_pod, min_ready):
                        unavailable += 1
                elif old_pod is not None:
                    if not self._available(old_pod, min_ready):
                        replacements.append(old_pod)
                        unavailable += 1
                    elif unavailable < max_unavailable:
                        candidates.append(old_pod)
            remaining = min(max(max_unavailable - unavailable, 0), len(candidates))
            return self._sync_nodes(ds, replacements + candidates[:remaining], [], hash_)
        # Surge: create the new pod first, delete the old one once the new one is available.
        to_delete: list[Pod] = []
        should_not_run: list[Pod] = []
        candidate_nodes: list[str] = []
        allowed_nodes: list[str] = []
        surging = 0
        available = 0
        for node_name, pods in ordered:
            new_pod, old_pod, ok = self._split_on_node(pods, hash_)
            if not ok:
                surging += 1
                continue
            if old_pod is not None:
                if self._available(old_pod, min_ready):
                    available += 1
            elif new_pod is not None and self._available(new_pod, min_ready):
                available += 1
            if old_pod is None:
                continue
            node = by_name.get(node_name)
            if new_pod is None:
                should_run = node is not None and self._should_run(node, ds)[0]
                if not self._available(old_pod, min_ready):
                    if not should_run:
                        to_delete.append(old_pod)
                        continue
                    allowed_nodes.append(node_name)
                else:
                    if not should_run:
                        should_not_run.append(old_pod)
                        continue
                    if surging >= max_surge:
                        continue
                    candidate_nodes.append(node_name)
            elif not self._available(new_pod, min_ready):
                surging += 1
            else:
                to_delete.append(old_pod)
        # With surge the owner expects full availability: a pod on a node that no longer fits
        # goes only once enough pods elsewhere are available.
        deletable = min(available - desired, len(should_not_run))
        if deletable > 0:
            to_delete.extend(should_not_run[:deletable])
        remaining = min(max(max_surge - surging, 0), len(candidate_nodes))
        return self._sync_nodes(ds, to_delete, allowed_nodes + candidate_nodes[:remaining], hash_)

    # ------------------------------------------------------------------ status

    def _update_status(self, ds: DaemonSet, nodes: list[Node], hash_: str) -> None:
        """updateDaemonSetStatus and storeDaemonSetStatus: the counts over the nodes, the
        unavailable ones (desired - available) and the generation this sync observed. Every sync
        observes it: creations and deletions are done at once here, so the expectations that make
        upstream skip observedGeneration are always satisfied."""
        current = self.ctx.cluster.get(DaemonSet, ds.metadata.key)
        if current is None or current.metadata.uid != ds.metadata.uid:
            return
        node_to_pods = self._node_to_daemon_pods(ds)
        desired = scheduled_count = misscheduled = ready = updated = available = 0
        for node in nodes:
            should_run = self._should_run(node, ds)[0]
            pods = node_to_pods.get(node.name)
            if not should_run:
                if pods:
                    misscheduled += 1
                continue
            desired += 1
            if not pods:
                continue
            scheduled_count += 1
            pod = min(pods, key=_by_creation_and_phase)
            if pod.status.ready:
                ready += 1
                if self._available(pod, ds.spec.min_ready_seconds):
                    available += 1
            if self._is_updated(pod, hash_):
                updated += 1
        status = DaemonSetStatus(
            desired_number_scheduled=desired,
            current_number_scheduled=scheduled_count,
            number_ready=ready,
            number_available=available,
            updated_number_scheduled=updated,
            number_misscheduled=misscheduled,
            number_unavailable=desired - available,
            observed_generation=ds.generation,
        )
        if current.status != status:
            self.ctx.cluster.update(replace(current, status=status))
        if ds.spec.min_ready_seconds > 0 and ready != available:
            self.queue.add_after(ds.metadata.key, float(ds.spec.min_ready_seconds))
