"""Rollback (pkg/controller/deployment/rollback.go): put the template of an earlier revision back into the
deployment; the rollout that follows is an ordinary one, to the ReplicaSet of that revision.

A rollback is asked for with the deprecated.deployment.rollback.to annotation (the apps/v1beta1 rollback
subresource's way, still served by the controller): 0 means the previous revision.
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from scheduler_core.api.workloads import Deployment, ReplicaSet
from scheduler_core.controllers import deployment_util as util
from scheduler_core.controllers.deployment_sync import get_all_replica_sets_and_sync_revision
from scheduler_core.controllers.deployment_util import go_quote

if TYPE_CHECKING:
    from scheduler_core.controllers.deployment import DeploymentController

LAST_REVISION_NOT_FOUND_MESSAGE = "Unable to find last revision."
REVISION_NOT_FOUND_MESSAGE = "Unable to find the revision to rollback to."
TEMPLATE_UNCHANGED_MESSAGE = "The rollback revision contains the same template as current deployment {}"
ROLLED_BACK_MESSAGE = "Rolled back deployment {} to revision {}"


def rollback(dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet], to_revision: int) -> str | None:
    d, new, old, error = get_all_replica_sets_and_sync_revision(dc, d, rs_list, True)
    if error is not None:
        return error
    all_rss = [rs for rs in (*old, new) if rs is not None]
    if to_revision == 0:
        to_revision = util.last_revision(all_rss)
        if to_revision == 0:
            dc.record(d, util.ROLLBACK_REVISION_NOT_FOUND, LAST_REVISION_NOT_FOUND_MESSAGE, warning=True)
            _clear_rollback_to(dc, d)
            return None
    for rs in all_rss:
        if util.revision(rs) == to_revision:
            if _rollback_to_template(dc, d, rs):
                dc.record(d, util.ROLLBACK_DONE, ROLLED_BACK_MESSAGE.format(go_quote(d.metadata.name), to_revision))
            return None
    dc.record(d, util.ROLLBACK_REVISION_NOT_FOUND, REVISION_NOT_FOUND_MESSAGE, warning=True)
    _clear_rollback_to(dc, d)
    return None


def _rollback_to_template(dc: "DeploymentController", d: Deployment, rs: ReplicaSet) -> bool:
    """Copy the ReplicaSet's template (without its hash label) and annotations into the deployment."""
    if util.equal_ignore_hash(d.spec.template, rs.spec.template):
        message = TEMPLATE_UNCHANGED_MESSAGE.format(go_quote(d.metadata.name))
        dc.record(d, util.ROLLBACK_TEMPLATE_UNCHANGED, message, warning=True)
        _clear_rollback_to(dc, d)
        return False
    annotations = util.deployment_annotations_from(d, rs)
    d = replace(
        d,
        metadata=replace(d.metadata, annotations=annotations),
        spec=replace(d.spec, template=util.without_hash(rs.spec.template)),
    )
    _clear_rollback_to(dc, d)
    return True


def _clear_rollback_to(dc: "DeploymentController", d: Deployment) -> None:
    """updateDeploymentAndClearRollbackTo: an Update of the whole object, so the generation moves on."""
    current: Deployment | None = dc.ctx.cluster.get(Deployment, d.metadata.key)
    if current is None:
        return
    annotations = {k: v for k, v in d.metadata.annotations.items() if k != util.ROLLBACK_TO_ANNOTATION}
    updated = replace(d, metadata=replace(d.metadata, annotations=annotations))
    if updated.spec != current.spec or updated.metadata.annotations != current.metadata.annotations:
        updated = replace(updated, generation=current.generation + 1)
    dc.write(updated)
