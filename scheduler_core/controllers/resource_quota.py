"""The resource quota controller (pkg/controller/resourcequota): ResourceQuota status.used.

A quota's used amounts are recomputed whenever it changes or an object of a kind it can count
changes in its namespace (replenishment), with the evaluators the admission plugin charges
(admission/resource_quota.py): every hard name gets an entry, 0 when nothing uses it. A pod stuck
terminating stops counting once twice its grace period has passed (upstream's deletionTimestamp
already includes one), which a timer notices; upstream notices at its next full resync.
"""

from dataclasses import replace

from scheduler_core.admission.resource_quota import KIND_RESOURCES, quota_usage
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import ResourceQuota
from scheduler_core.controllers.base import Context, DirtyKeys
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "resourcequota"


class ResourceQuotaController:
    name = NAME
    watch_kinds = frozenset(KIND_RESOURCES)  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.dirty = DirtyKeys()  # quota keys
        self._dirty_namespaces: dict[str, None] = {}
        self._timers: set[tuple[str, float]] = set()

    def on_change(self, change: Change[StoredObject]) -> None:
        if (quota_change := change.of(ResourceQuota)) is not None and change.type is not ChangeType.DELETED:
            old, new = quota_change.old, quota_change.latest
            if old is None or (old.hard, old.scopes) != (new.hard, new.scopes):
                self.dirty.mark(change.key)
        # Quotas are counted too (resourcequotas, count/resourcequotas), so this is not an elif.
        if change.kind in KIND_RESOURCES:
            namespace = change.latest.metadata.namespace
            if namespace:
                self._dirty_namespaces[namespace] = None
            if (pod_change := change.of(Pod)) is not None and pod_change.new is not None:
                self._watch_termination(pod_change.new)

    def _watch_termination(self, pod: Pod) -> None:
        deleted_at = pod.metadata.deletion_timestamp
        grace = pod.metadata.deletion_grace_period_seconds
        if deleted_at is None or grace is None:
            return
        at = deleted_at + 2 * grace + 1.0
        namespace = pod.metadata.namespace
        token = (namespace, at)
        if at <= self.ctx.now or token in self._timers:
            return
        if not any(quota.metadata.namespace == namespace for quota in self.ctx.cluster.objects(ResourceQuota)):
            return
        self._timers.add(token)

        def fire() -> None:
            self._timers.discard(token)
            self._dirty_namespaces[namespace] = None

        # Idle: a status refresh alone does not keep a finished run going.
        self.ctx.after(at - self.ctx.now, fire, label=f"quota recalculation {namespace}", idle=True)

    def sync(self) -> bool:
        if self._dirty_namespaces:
            namespaces = set(self._dirty_namespaces)
            self._dirty_namespaces.clear()
            for existing in self.ctx.cluster.objects(ResourceQuota):
                if existing.metadata.namespace in namespaces:
                    self.dirty.mark(existing.metadata.key)
        keys = self.dirty.take()
        if not keys:
            return False
        objects = {kind: self.ctx.cluster.objects(kind) for kind in KIND_RESOURCES}
        for key in keys:
            quota: ResourceQuota | None = self.ctx.cluster.get(ResourceQuota, key)
            if quota is None:
                continue
            used = quota_usage(quota, objects, self.ctx.now)
            if dict(quota.used) != used:
                self.ctx.cluster.update(replace(quota, used=used))
        return True
