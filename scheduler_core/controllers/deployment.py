"""The Deployment controller (pkg/controller/deployment/deployment_controller.go).

A Deployment runs its pods through ReplicaSets named "<deployment>-<pod-template-hash>", one per pod
template it has had; it scales them (events ScalingReplicaSet "Scaled up replica set web-6d4cf from
0 to 3"), rolls from old to new with RollingUpdate (maxSurge/maxUnavailable) or Recreate, scales
proportionally when resized mid-rollout, keeps revisionHistoryLimit old ReplicaSets, honours
spec.paused and rolls back on request. The sync of one Deployment follows syncDeployment:

    paused -> sync (scale only);  rollback requested -> rollback;  scaling event -> sync;
    otherwise rolloutRecreate or rolloutRolling.

The pieces live in deployment_sync.py (ReplicaSets, revisions, scaling, status), deployment_rolling.py,
deployment_recreate.py, deployment_rollback.py and deployment_progress.py (conditions).

Timeline ops handed to this controller (actions.py): rollout-undo [toRevision] sets the rollback
request as the apps/v1beta1 rollback subresource did (the deprecated.deployment.rollback.to
annotation the controller still serves), pause and resume set spec.paused as `kubectl rollout`
does. The controller keeps the conditions it is building (`conditions(key)`) and writes them with
each status; status.collisionCount is bumped and written at once when a new ReplicaSet's name is
taken. Deleting a Deployment deletes its ReplicaSets after it (the garbage collector's background
cascade).
"""

from contextlib import suppress
from dataclasses import replace
from typing import Any

from scheduler_core.api.errors import ActionError
from scheduler_core.api.timeline import Action
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import Deployment, ReplicaSet
from scheduler_core.controllers import deployment_sync as sync
from scheduler_core.controllers.base import Context, DirtyKeys, record
from scheduler_core.controllers.deployment_recreate import rollout_recreate
from scheduler_core.controllers.deployment_rollback import rollback
from scheduler_core.controllers.deployment_rolling import rollout_rolling
from scheduler_core.controllers.deployment_util import (
    ROLLBACK_TO_ANNOTATION,
    SELECTING_ALL_REASON,
    Conditions,
    rollback_to,
)
from scheduler_core.controllers.replicaset import controller_uid
from scheduler_core.controllers.requeue import Requeue
from scheduler_core.store.cluster import Change, ChangeType, ConflictError, StoredObject

NAME = "deployment"
SOURCE = "deployment-controller"
API_VERSION = "apps/v1"
SELECTING_ALL_MESSAGE = "This deployment is selecting all pods. A non-empty selector is required."
# kubectl rollout pause/resume/undo refusals.
ALREADY_PAUSED_MESSAGE = 'deployments.apps "{}" is already paused'
NOT_PAUSED_MESSAGE = 'deployments.apps "{}" is not paused'
PAUSED_ROLLBACK_MESSAGE = (
    "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"
)


class DeploymentController:
    name = NAME
    watch_kinds = frozenset({"Pod", "ReplicaSet", "Deployment"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.dirty = DirtyKeys()
        self.requeue = Requeue(ctx, self.dirty.mark, "deployment sync")
        self._key: dict[str, str] = {}  # deployment uid -> key
        self._replica_sets: dict[str, dict[str, None]] = {}  # deployment uid -> keys of its ReplicaSets
        self._rs_owner: dict[str, str] = {}  # ReplicaSet key -> deployment uid
        self._rs_uid_owner: dict[str, str] = {}  # ReplicaSet uid -> deployment uid
        self._pods: dict[str, dict[str, Pod]] = {}  # ReplicaSet uid -> its pods by key
        self._pod_owner: dict[str, str] = {}  # pod key -> ReplicaSet uid
        self._conditions: dict[str, Conditions] = {}  # deployment uid -> status.conditions
        self._collect: list[tuple[str, str]] = []  # (ReplicaSet key, deployment uid) left by deleted deployments

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            self._on_pod(pod_change)
        elif (replica_set_change := change.of(ReplicaSet)) is not None:
            self._on_replica_set(replica_set_change)
        elif (deployment_change := change.of(Deployment)) is not None:
            self._on_deployment(deployment_change)

    def _on_deployment(self, change: Change[Deployment]) -> None:
        if change.type is ChangeType.DELETED:
            uid = change.previous.metadata.uid
            self._key.pop(uid, None)
            self._collect.extend((key, uid) for key in self._replica_sets.get(uid, {}))
            self._conditions.pop(uid, None)
            self.requeue.drop(change.key)
            return
        d = change.latest
        self._key[d.metadata.uid] = change.key
        self.dirty.mark(change.key)

    def _on_replica_set(self, change: Change[ReplicaSet]) -> None:
        key = change.key
        previous = self._rs_owner.get(key)
        rs: ReplicaSet | None = change.new
        owner = controller_uid(rs, "Deployment") if rs is not None else None
        if previous is not None and previous != owner:
            self._replica_sets.get(previous, {}).pop(key, None)
            self._mark_uid(previous)
        if change.old is not None and (rs is None or rs.metadata.uid != change.old.metadata.uid):
            self._rs_uid_owner.pop(change.old.metadata.uid, None)
        if owner is None:
            self._rs_owner.pop(key, None)
            if rs is not None:
                self._rs_uid_owner.pop(rs.metadata.uid, None)
            return
        assert rs is not None
        self._rs_owner[key] = owner
        self._rs_uid_owner[rs.metadata.uid] = owner
        self._replica_sets.setdefault(owner, {})[key] = None
        self._mark_uid(owner)

    def _on_pod(self, change: Change[Pod]) -> None:
        key = change.key
        previous = self._pod_owner.get(key)
        pod: Pod | None = change.new
        owner = controller_uid(pod, "ReplicaSet") if pod is not None else None
        if previous is not None and previous != owner:
            pods = self._pods.get(previous, {})
            pods.pop(key, None)
            if not pods:
                self._pods.pop(previous, None)
            del self._pod_owner[key]
        if owner is not None and pod is not None:
            self._pod_owner[key] = owner
            self._pods.setdefault(owner, {})[key] = pod
        if change.type is ChangeType.DELETED and previous is not None:
            self._pod_deleted(previous)

    def _pod_deleted(self, rs_uid: str) -> None:
        """deletePod: a Recreate deployment waits for its last pod to go before creating new ones."""
        deployment_uid = self._rs_uid_owner.get(rs_uid)
        if deployment_uid is None:
            return
        key = self._key.get(deployment_uid)
        d: Deployment | None = self.ctx.cluster.get(Deployment, key) if key else None
        if d is None or d.spec.strategy_type != "Recreate":
            return
        if sum(len(pods) for pods in self.pod_map(d).values()) == 0:
            self.dirty.mark(d.metadata.key)

    def _mark_uid(self, uid: str) -> None:
        key = self._key.get(uid)
        if key is not None:
            self.dirty.mark(key)

    # ------------------------------------------------------------------ what the sync modules use

    def replica_sets(self, d: Deployment) -> list[ReplicaSet]:
        """getReplicaSetsForDeployment: the ReplicaSets this deployment controls."""
        found = (self.ctx.cluster.get(ReplicaSet, key) for key in self._replica_sets.get(d.metadata.uid, {}))
        return [rs for rs in found if rs is not None and controller_uid(rs, "Deployment") == d.metadata.uid]

    def pod_map(self, d: Deployment) -> dict[str, list[Pod]]:
        """getPodMapForDeployment: the pods of each of its ReplicaSets, by ReplicaSet uid."""
        result: dict[str, list[Pod]] = {}
        for rs in self.replica_sets(d):
            result[rs.metadata.uid] = list(self._pods.get(rs.metadata.uid, {}).values())
        return result

    def fresh(self, rs: ReplicaSet | None) -> ReplicaSet | None:
        if rs is None:
            return None
        current: ReplicaSet | None = self.ctx.cluster.get(ReplicaSet, rs.metadata.key)
        return current if current is not None and current.metadata.uid == rs.metadata.uid else rs

    def conditions(self, d: Deployment | str) -> Conditions:
        """status.conditions of a deployment as the controller has them now (written with its
        status: write_status, write)."""
        if isinstance(d, str):
            found: Deployment | None = self.ctx.cluster.get(Deployment, d)
            if found is None:
                return {}
            d = found
        return self._conditions.setdefault(d.metadata.uid, {})

    def collision_count(self, d: Deployment) -> int:
        return d.status.collision_count or 0

    def bump_collision_count(self, d: Deployment) -> Deployment:
        return self.write(replace(d, status=replace(d.status, collision_count=self.collision_count(d) + 1)))

    def write(self, d: Deployment) -> Deployment:
        """Every write carries the conditions as they are now (set since the last write or not)."""
        conditions = tuple(self.conditions(d).values())
        if d.status.conditions != conditions:
            d = replace(d, status=replace(d.status, conditions=conditions))
        stored: Deployment = self.ctx.cluster.update(d)
        return stored

    def record(self, obj: Any, reason: str, message: str, *, warning: bool = False) -> None:
        record(self.ctx, obj, reason, message, warning=warning, source=SOURCE)

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        busy = False
        if self._collect:
            busy = True
            collect, self._collect = self._collect, []
            for key, owner in collect:
                rs: ReplicaSet | None = self.ctx.cluster.get(ReplicaSet, key)
                if rs is not None and controller_uid(rs, "Deployment") == owner:
                    with suppress(ConflictError):
                        self.ctx.cluster.delete(ReplicaSet, key)
        for key in self.dirty.take():
            busy = True
            error = self._sync_deployment(key)
            if error is not None:
                self.requeue.rate_limited(key)
            else:
                self.requeue.forget(key)
        return busy

    def _sync_deployment(self, key: str) -> str | None:
        d: Deployment | None = self.ctx.cluster.get(Deployment, key)
        if d is None:
            return None
        if d.spec.selector.is_empty:
            self.record(d, SELECTING_ALL_REASON, SELECTING_ALL_MESSAGE, warning=True)
            if d.status.observed_generation < d.generation:
                self.write(replace(d, status=replace(d.status, observed_generation=d.generation)))
            return None
        rs_list = self.replica_sets(d)
        if d.metadata.deletion_timestamp is not None:
            return sync.sync_status_only(self, d, rs_list)
        sync.check_paused_conditions(self, d)
        if d.spec.paused:
            return sync.sync(self, d, rs_list)
        revision = rollback_to(d)
        if revision is not None:
            return rollback(self, d, rs_list, revision)
        d, scaling, error = sync.is_scaling_event(self, d, rs_list)
        if error is not None:
            return error
        if scaling:
            return sync.sync(self, d, self.replica_sets(d))
        rs_list = self.replica_sets(d)
        if d.spec.strategy_type == "Recreate":
            return rollout_recreate(self, d, rs_list, self.pod_map(d))
        return rollout_rolling(self, d, rs_list)

    # ------------------------------------------------------------------ timeline ops

    def handle_action(self, action: Action) -> None:
        target = action.target
        if target is None or target.kind != "Deployment":
            kind = target.kind if target is not None else "nothing"
            raise ActionError(f"{action.op} acts on a Deployment, not on {kind}")
        d: Deployment | None = self.ctx.cluster.get(Deployment, target.key)
        if d is None:
            raise ActionError(f"{target} not found")
        name = d.metadata.name
        if action.op == "pause":
            if d.spec.paused:
                raise ActionError(ALREADY_PAUSED_MESSAGE.format(name))
            self.write(replace(d, spec=replace(d.spec, paused=True), generation=d.generation + 1))
        elif action.op == "resume":
            if not d.spec.paused:
                raise ActionError(NOT_PAUSED_MESSAGE.format(name))
            self.write(replace(d, spec=replace(d.spec, paused=False), generation=d.generation + 1))
        elif action.op == "rollout-undo":
            if d.spec.paused:
                raise ActionError(PAUSED_ROLLBACK_MESSAGE)
            raw = action.args.get("toRevision", 0)
            try:
                to_revision = int(raw if raw is not None else 0)
            except (TypeError, ValueError, OverflowError):  # OverflowError: toRevision: .inf
                raise ActionError(f"invalid toRevision {raw!r}: must be a revision number") from None
            if to_revision < 0:
                raise ActionError(f"invalid toRevision {to_revision}: must be 0 (the previous revision) or more")
            annotations = {**d.metadata.annotations, ROLLBACK_TO_ANNOTATION: str(to_revision)}
            # Annotation changes bump a Deployment's generation (the registry's PrepareForUpdate).
            self.write(replace(d, metadata=replace(d.metadata, annotations=annotations), generation=d.generation + 1))
        else:
            raise ActionError(f"the deployment controller does not do {action.op}")
