"""The Deployment controller's ReplicaSet bookkeeping, scaling and status (pkg/controller/deployment/sync.go).

Functions take the controller (`dc`) the way upstream's are methods of DeploymentController. Those that
may change the deployment object return the updated one. Errors are returned as text (None: done).
"""

from contextlib import suppress
from dataclasses import replace
from typing import TYPE_CHECKING

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.types import ObjectMeta, OwnerReference
from scheduler_core.api.workloads import Deployment, DeploymentStatus, ReplicaSet, ReplicaSetSpec
from scheduler_core.controllers import deployment_util as util
from scheduler_core.controllers.deployment_util import (
    AVAILABLE,
    PROGRESSING,
    Conditions,
    go_quote,
    new_condition,
    set_condition,
)
from scheduler_core.controllers.naming import template_hash
from scheduler_core.store.cluster import ConflictError

if TYPE_CHECKING:
    from scheduler_core.controllers.deployment import DeploymentController

API_VERSION = "apps/v1"
# Messages (sync.go, progress.go, deployment_util.go).
SCALED_MESSAGE = "Scaled {} replica set {} from {} to {}"
FOUND_NEW_RS_MESSAGE = "Found new replica set {}"
CREATED_NEW_RS_MESSAGE = "Created new replica set {}"
FAILED_RS_CREATE_MESSAGE = "Failed to create new replica set {}: {}"
MIN_AVAILABILITY_MESSAGE = "Deployment has minimum availability."
NO_MIN_AVAILABILITY_MESSAGE = "Deployment does not have minimum availability."
PAUSED_MESSAGE = "Deployment is paused"
RESUMED_MESSAGE = "Deployment is resumed"


def set_deployment_revision(d: Deployment, revision: str) -> Deployment:
    if d.metadata.annotations.get(util.REVISION_ANNOTATION) == revision:
        return d
    annotations = {**d.metadata.annotations, util.REVISION_ANNOTATION: revision}
    return replace(d, metadata=replace(d.metadata, annotations=annotations))


def _controller_ref(d: Deployment) -> OwnerReference:
    return OwnerReference(
        kind="Deployment", name=d.metadata.name, uid=d.metadata.uid, api_version=API_VERSION, controller=True
    )


def _update_rs(dc: "DeploymentController", old: ReplicaSet, new: ReplicaSet) -> ReplicaSet:
    """PUT a ReplicaSet: a spec change bumps its generation."""
    if new.spec != old.spec:
        new = replace(new, generation=old.generation + 1)
    stored: ReplicaSet = dc.ctx.cluster.update(new)
    return stored


# ---------------------------------------------------------------------------- ReplicaSets and revisions


def get_all_replica_sets_and_sync_revision(
    dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet], create: bool
) -> tuple[Deployment, ReplicaSet | None, list[ReplicaSet], str | None]:
    """The new ReplicaSet (created when asked and missing) with its revision brought up to date, and the old ones."""
    old = util.find_old_replica_sets(d, rs_list)
    d, new, error = get_new_replica_set(dc, d, rs_list, old, create)
    return d, new, old, error


def get_new_replica_set(
    dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet], old: list[ReplicaSet], create: bool
) -> tuple[Deployment, ReplicaSet | None, str | None]:
    existing = util.find_new_replica_set(d, rs_list)
    new_revision = str(util.max_revision(old) + 1)
    now = dc.ctx.now
    if existing is not None:
        annotations = dict(existing.metadata.annotations)
        changed = util.set_new_replica_set_annotations(
            d, annotations, new_revision, True, util.MAX_REV_HISTORY_LENGTH_IN_CHARS
        )
        if changed or existing.spec.min_ready_seconds != d.spec.min_ready_seconds:
            updated = replace(
                existing,
                metadata=replace(existing.metadata, annotations=annotations),
                spec=replace(existing.spec, min_ready_seconds=d.spec.min_ready_seconds),
            )
            return d, _update_rs(dc, existing, updated), None
        revised = set_deployment_revision(d, existing.metadata.annotations.get(util.REVISION_ANNOTATION, ""))
        conditions = dc.conditions(d)
        if util.has_progress_deadline(d) and PROGRESSING not in conditions:
            message = FOUND_NEW_RS_MESSAGE.format(go_quote(existing.metadata.name))
            set_condition(conditions, new_condition(PROGRESSING, "True", util.FOUND_NEW_RS_REASON, message, now))
        if revised is not d:
            d = dc.write(revised)
        return d, existing, None
    if not create:
        return d, None, None

    template = d.spec.template
    hash_value = template_hash(template, dc.collision_count(d))
    new_template = replace(template, labels={**template.labels, util.POD_TEMPLATE_HASH_LABEL: hash_value})
    name = f"{d.metadata.name}-{hash_value}"
    rs = ReplicaSet(
        metadata=ObjectMeta(
            name=name,
            namespace=d.metadata.namespace,
            labels=dict(new_template.labels),
            owner_references=(_controller_ref(d),),
        ),
        spec=ReplicaSetSpec(
            selector=util.selector_with_hash(d.spec.selector, hash_value),
            template=new_template,
            replicas=0,
            min_ready_seconds=d.spec.min_ready_seconds,
        ),
    )
    replicas = util.new_rs_new_replicas(d, [*old, rs], rs)
    new_annotations: dict[str, str] = {}
    util.set_new_replica_set_annotations(d, new_annotations, new_revision, False, util.MAX_REV_HISTORY_LENGTH_IN_CHARS)
    rs = replace(
        rs, metadata=replace(rs.metadata, annotations=new_annotations), spec=replace(rs.spec, replicas=replicas)
    )
    already_exists = False
    try:
        created: ReplicaSet = dc.ctx.cluster.create(rs)
    except ConflictError as conflict:
        found: ReplicaSet | None = dc.ctx.cluster.get(ReplicaSet, rs.metadata.key)
        if (
            found is not None
            and util.controller_uid_is(found, d.metadata.uid)
            and util.equal_ignore_hash(d.spec.template, found.spec.template)
        ):
            created, already_exists = found, True
        else:
            # A hash collision: count it (status.collisionCount, written at once) and try again
            # with a new hash.
            d = dc.bump_collision_count(d)
            dc.dirty.mark(d.metadata.key)
            return d, None, str(conflict)
    except AdmissionError as refusal:
        message = FAILED_RS_CREATE_MESSAGE.format(go_quote(name), refusal)
        if util.has_progress_deadline(d):
            condition = new_condition(PROGRESSING, "False", util.FAILED_RS_CREATE_REASON, message, now)
            set_condition(dc.conditions(d), condition)
        dc.record(d, util.FAILED_RS_CREATE_REASON, message, warning=True)
        return d, None, message
    if not already_exists and replicas > 0:
        dc.record(d, util.SCALING_REPLICA_SET_REASON, SCALED_MESSAGE.format("up", created.metadata.name, 0, replicas))
    revised = set_deployment_revision(d, new_revision)
    if not already_exists and util.has_progress_deadline(d):
        message = CREATED_NEW_RS_MESSAGE.format(go_quote(created.metadata.name))
        set_condition(dc.conditions(d), new_condition(PROGRESSING, "True", util.NEW_REPLICA_SET_REASON, message, now))
    if revised is not d:
        d = dc.write(revised)
    return d, created, None


# ---------------------------------------------------------------------------- scaling


def scale_replica_set_and_record_event(
    dc: "DeploymentController", rs: ReplicaSet, new_scale: int, d: Deployment
) -> tuple[bool, ReplicaSet]:
    if rs.spec.replicas == new_scale:
        return False, rs
    return scale_replica_set(dc, rs, new_scale, d)


def scale_replica_set(
    dc: "DeploymentController", rs: ReplicaSet, new_scale: int, d: Deployment
) -> tuple[bool, ReplicaSet]:
    """Set the ReplicaSet's size and its desired/max-replicas annotations; a new size is a ScalingReplicaSet event."""
    size_changes = rs.spec.replicas != new_scale
    desired, maximum = d.spec.replicas, d.spec.replicas + util.max_surge(d)
    if not size_changes and not util.replicas_annotations_need_update(rs, desired, maximum):
        return False, rs
    old_scale = rs.spec.replicas
    annotations = dict(rs.metadata.annotations)
    util.set_replicas_annotations(annotations, desired, maximum)
    updated = replace(
        rs, metadata=replace(rs.metadata, annotations=annotations), spec=replace(rs.spec, replicas=new_scale)
    )
    stored = _update_rs(dc, rs, updated)
    if size_changes:
        direction = "up" if old_scale < new_scale else "down"
        message = SCALED_MESSAGE.format(direction, rs.metadata.name, old_scale, new_scale)
        dc.record(d, util.SCALING_REPLICA_SET_REASON, message)
    return size_changes, stored


def scale(dc: "DeploymentController", d: Deployment, new: ReplicaSet | None, old: list[ReplicaSet]) -> None:
    """Scale on a scaling event or while paused: proportionally across the active ReplicaSets during a rollout."""
    old = util.newest_first(old)
    only = util.find_active_or_latest(new, old)
    if only is not None:
        if only.spec.replicas != d.spec.replicas:
            scale_replica_set_and_record_event(dc, only, d.spec.replicas, d)
        return
    if util.is_saturated(d, new):
        for rs in util.active(old):
            scale_replica_set_and_record_event(dc, rs, 0, d)
        return
    if not util.is_rolling_update(d):
        return
    live = util.active([*old, new])
    allowed = d.spec.replicas + util.max_surge(d) if d.spec.replicas > 0 else 0
    to_add = allowed - util.replica_count(live)
    if to_add > 0:
        live = util.by_size_newer(live)
    elif to_add < 0:
        live = util.by_size_older(live)
    added = 0
    sizes: dict[str, int] = {}
    for rs in live:
        if to_add != 0:
            share = util.proportion(rs, d, to_add, added)
            sizes[rs.metadata.name] = rs.spec.replicas + share
            added += share
        else:
            sizes[rs.metadata.name] = rs.spec.replicas
    for index, rs in enumerate(live):
        if index == 0 and to_add != 0:
            sizes[rs.metadata.name] = max(sizes[rs.metadata.name] + to_add - added, 0)
        scale_replica_set(dc, rs, sizes[rs.metadata.name], d)


def is_scaling_event(
    dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet]
) -> tuple[Deployment, bool, str | None]:
    """A scaling event: an active ReplicaSet was sized for a different spec.replicas (desired-replicas)."""
    d, new, old, error = get_all_replica_sets_and_sync_revision(dc, d, rs_list, False)
    if error is not None:
        return d, False, error
    for rs in util.active([*old, new]):
        desired = util.desired_replicas_annotation(rs)
        if desired is not None and desired != d.spec.replicas:
            return d, True, None
    return d, False, None


def cleanup_deployment(dc: "DeploymentController", old: list[ReplicaSet], d: Deployment) -> None:
    """Delete the oldest old ReplicaSets beyond revisionHistoryLimit, if they are scaled to zero and settled."""
    if not util.has_revision_history_limit(d):
        return
    cleanable = [rs for rs in (dc.fresh(rs) for rs in old) if rs is not None and rs.metadata.deletion_timestamp is None]
    excess = len(cleanable) - d.spec.revision_history_limit
    if excess <= 0:
        return
    for rs in util.by_revision(cleanable)[:excess]:
        if rs.status.replicas != 0 or rs.spec.replicas != 0 or rs.generation > rs.status.observed_generation:
            continue
        with suppress(ConflictError):
            dc.ctx.cluster.delete(ReplicaSet, rs.metadata.key)


# ---------------------------------------------------------------------------- status


def calculate_status(
    dc: "DeploymentController", all_rss: list[ReplicaSet | None], new: ReplicaSet | None, d: Deployment
) -> tuple[DeploymentStatus, Conditions]:
    available = util.available_replica_count(all_rss)
    status = DeploymentStatus(
        observed_generation=d.generation,
        replicas=util.actual_replica_count(all_rss),
        updated_replicas=util.actual_replica_count([new]),
        ready_replicas=util.ready_replica_count(all_rss),
        available_replicas=available,
        unavailable_replicas=max(util.replica_count(all_rss) - available, 0),
        collision_count=d.status.collision_count,
    )
    conditions = dict(dc.conditions(d))
    now = dc.ctx.now
    if available >= d.spec.replicas - util.max_unavailable(d):
        condition = new_condition(AVAILABLE, "True", util.MINIMUM_REPLICAS_AVAILABLE, MIN_AVAILABILITY_MESSAGE, now)
    else:
        condition = new_condition(
            AVAILABLE, "False", util.MINIMUM_REPLICAS_UNAVAILABLE, NO_MIN_AVAILABILITY_MESSAGE, now
        )
    set_condition(conditions, condition)
    return status, conditions


def write_status(
    dc: "DeploymentController", d: Deployment, status: DeploymentStatus, conditions: Conditions
) -> Deployment:
    current = dc.conditions(d)
    if current != conditions:
        current.clear()
        current.update(conditions)
    status = with_conditions(status, conditions)
    if status != d.status:
        d = dc.write(replace(d, status=status))
    return d


def with_conditions(status: DeploymentStatus, conditions: Conditions) -> DeploymentStatus:
    """The status as written: status.conditions are the controller's, in their order."""
    return replace(status, conditions=tuple(conditions.values()))


def sync_deployment_status(
    dc: "DeploymentController", all_rss: list[ReplicaSet | None], new: ReplicaSet | None, d: Deployment
) -> None:
    status, conditions = calculate_status(dc, all_rss, new, d)
    write_status(dc, d, status, conditions)


def refreshed(dc: "DeploymentController", rss: list[ReplicaSet | None]) -> list[ReplicaSet | None]:
    return [dc.fresh(rs) for rs in rss]


def sync_status_only(dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet]) -> str | None:
    d, new, old, error = get_all_replica_sets_and_sync_revision(dc, d, rs_list, False)
    if error is not None:
        return error
    sync_deployment_status(dc, [*old, new], new, d)
    return None


def sync(dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet]) -> str | None:
    """Reconcile a scaling event or a paused deployment: scale, clean up old revisions when paused, status."""
    d, new, old, error = get_all_replica_sets_and_sync_revision(dc, d, rs_list, False)
    if error is not None:
        return error
    scale(dc, d, new, old)
    if d.spec.paused and util.rollback_to(d) is None:
        cleanup_deployment(dc, old, d)
    sync_deployment_status(dc, refreshed(dc, [*old, new]), dc.fresh(new), d)
    return None


def check_paused_conditions(dc: "DeploymentController", d: Deployment) -> None:
    """A paused deployment's Progressing condition says so, so that a long pause is not taken for no progress."""
    if not util.has_progress_deadline(d):
        return
    conditions = dc.conditions(d)
    current = conditions.get(PROGRESSING)
    if current is not None and current.reason == util.TIMED_OUT_REASON:
        return
    paused_set = current is not None and current.reason == util.PAUSED_DEPLOY_REASON
    now = dc.ctx.now
    if d.spec.paused and not paused_set:
        set_condition(conditions, new_condition(PROGRESSING, "Unknown", util.PAUSED_DEPLOY_REASON, PAUSED_MESSAGE, now))
    elif not d.spec.paused and paused_set:
        set_condition(
            conditions, new_condition(PROGRESSING, "Unknown", util.RESUMED_DEPLOY_REASON, RESUMED_MESSAGE, now)
        )
