"""Writes through the API, as the playground takes them: every write that changes the cluster
becomes timeline Actions (api/timeline.py) at the API clock's present moment, so it replays with
the scenario and shows on the board as the Act form's do. A write names the narrowest action that
does what it asks (a cordon, a label, a scale, an image), and otherwise applies the whole object
as written (`op: apply`).

Each function checks the write against the store the client reads (what the API server would
check at that moment): a missing or existing object, a stale resourceVersion, a manifest the
engine refuses (422 Invalid with the field), a disruption budget (429); it answers what the API
server answers right away. The web shell runs the scenario on and answers with the object as the
run then holds it, when the run is ready in time.
"""

import copy
from collections.abc import Callable
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import parse_object
from scheduler_core.kubeapi import patches, status
from scheduler_core.kubeapi.eviction import evict
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.reads import find
from scheduler_core.kubeapi.resources import Resource
from scheduler_core.kubeapi.scale import scale_of
from scheduler_core.kubeapi.write_types import WriteRequest, WriteResult

# PATCH bodies by Content-Type.
STRATEGIC = "application/strategic-merge-patch+json"
MERGE = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"
APPLY = "application/apply-patch+yaml"
PATCH_TYPES = (STRATEGIC, MERGE, JSON_PATCH, APPLY)

# What the server owns in metadata: a write's copy of them is not the client's to set.
SERVER_METADATA = ("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink")
SCALABLE = frozenset({"Deployment", "ReplicaSet", "StatefulSet"})


def write(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> WriteResult:
    if request.subresource == "eviction":
        return evict(snapshot, resource, request)
    if request.subresource == "scale":
        return _scale(snapshot, resource, request)
    if request.subresource:
        raise status.method_not_allowed()
    handlers: dict[str, Callable[[ApiSnapshot, Resource, WriteRequest], WriteResult]] = {
        "POST": _create,
        "PUT": _replace,
        "PATCH": _patch,
        "DELETE": _delete,
    }
    handler = handlers.get(request.method)
    if handler is None or resource.kind == "Event":
        raise status.method_not_allowed()
    return handler(snapshot, resource, request)


# ---------------------------------------------------------------------------- create, replace, patch


def _create(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> WriteResult:
    manifest = _object_body(request.body, resource)
    name = str(manifest.get("metadata", {}).get("name") or "")
    if not name:
        raise status.invalid(
            resource,
            "",
            [status.Cause("FieldValueRequired", "Required value: name or generateName is required", "metadata.name")],
        )
    namespace = _namespace_for(resource, manifest, request.namespace)
    if snapshot.get(resource, namespace, name) is not None:
        raise status.already_exists(resource, name)
    cleaned = _cleaned(manifest, resource, namespace)
    _check_parses(resource, name, cleaned)
    return WriteResult(201, cleaned, [{"op": "apply", "manifest": cleaned}], (resource.kind, namespace, name))


def _replace(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> WriteResult:
    current = _current(snapshot, resource, request)
    manifest = _object_body(request.body, resource)
    _check_name(manifest, request.name)  # before the store's version check, as the handler does
    asked_version = str(manifest.get("metadata", {}).get("resourceVersion") or "")
    if asked_version and asked_version != current["metadata"]["resourceVersion"]:
        raise status.conflict(resource, request.name, status.STALE_OBJECT)
    return _changed(snapshot, resource, request, current, manifest)


def _patch(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> WriteResult:
    content_type = request.content_type.split(";")[0].strip()
    exists = snapshot.get(resource, request.namespace, request.name) is not None
    if content_type == APPLY and not exists:  # server-side apply creates what does not exist
        body = dict(_object_body(request.body, resource))
        body.setdefault("metadata", {}).setdefault("name", request.name)
        return _create(snapshot, resource, WriteRequest("POST", request.namespace, request.name, body=body))
    current = _current(snapshot, resource, request)
    patched = apply_patch(current, request.body, content_type, resource.kind)
    return _changed(snapshot, resource, request, current, patched)


def apply_patch(current: dict[str, Any], body: Any, content_type: str, kind: str) -> Any:
    try:
        if content_type == STRATEGIC:
            return patches.strategic_merge_patch(current, body, kind)
        if content_type == MERGE:
            return patches.json_merge_patch(current, body)
        if content_type == JSON_PATCH:
            return patches.json_patch(current, body)
        if content_type == APPLY:
            # Server-side apply, approximated: the applied configuration merged in as a strategic
            # merge patch (field ownership is not kept, so a field dropped from a later apply stays).
            return patches.strategic_merge_patch(current, body, kind)
    except patches.PatchError as error:
        raise status.ApiError(error.code, error.reason, str(error)) from None
    raise status.unsupported_media_type(content_type)


def _changed(
    snapshot: ApiSnapshot, resource: Resource, request: WriteRequest, current: dict[str, Any], wanted: Any
) -> WriteResult:
    """The actions that take `current` to `wanted`; none when they are the same object."""
    if not isinstance(wanted, dict):
        raise status.bad_request("the patched object is not an object")
    _check_name(wanted, request.name)
    namespace = request.namespace if resource.namespaced else ""
    wanted = _cleaned(wanted, resource, namespace)
    wanted.setdefault("metadata", {})["name"] = request.name
    before = _cleaned(current, resource, namespace)
    target = (resource.kind, namespace, request.name)
    if _spec_and_meta(before) == _spec_and_meta(wanted):
        return WriteResult(200, current, [], target)
    _check_parses(resource, request.name, wanted)
    actions = narrow_actions(resource.kind, _target_text(resource, namespace, request.name), before, wanted)
    if actions is None:
        actions = [{"op": "apply", "manifest": wanted}]
    response = copy.deepcopy(wanted)
    response["metadata"].update(
        {key: current["metadata"][key] for key in SERVER_METADATA if key in current["metadata"]}
    )
    return WriteResult(200, response, actions, target)


def narrow_actions(
    kind: str, target: str, before: dict[str, Any], after: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """The timeline ops (cordon, taint, label, scale, set-image...) that make exactly this change,
    or None when they cannot (the whole object is applied instead)."""
    actions: list[dict[str, Any]] = []
    before, after = copy.deepcopy(_spec_and_meta(before)), copy.deepcopy(_spec_and_meta(after))
    actions += _label_actions(target, before, after)
    if kind == "Node":
        actions += _node_actions(target, before, after)
    if kind in SCALABLE:
        actions += _scale_actions(target, before, after)
    actions += _image_actions(target, before, after)
    return actions if _without_empty(before) == _without_empty(after) else None


def _without_empty(value: Any) -> Any:
    """Maps without their empty maps and lists (what popping the narrowed fields leaves)."""
    if isinstance(value, dict):
        kept = {key: _without_empty(item) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item not in ({}, [], None)}
    return value


def _label_actions(target: str, before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    old = before.get("metadata", {}).pop("labels", None) or {}
    new = after.get("metadata", {}).pop("labels", None) or {}
    actions: list[dict[str, Any]] = []
    changed = {key: value for key, value in new.items() if old.get(key) != value}
    removed = sorted(key for key in old if key not in new)
    if changed:
        actions.append({"op": "label", "target": target, "labels": changed})
    if removed:
        actions.append({"op": "unlabel", "target": target, "keys": removed})
    return actions


def _node_actions(target: str, before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = []
    old_spec, new_spec = before.get("spec", {}), after.get("spec", {})
    was, now = bool(old_spec.pop("unschedulable", False)), bool(new_spec.pop("unschedulable", False))
    if was != now:
        actions.append({"op": "cordon" if now else "uncordon", "target": target})
    old_taints = {(t.get("key", ""), t.get("effect", "")): t for t in old_spec.pop("taints", None) or []}
    new_taints = {(t.get("key", ""), t.get("effect", "")): t for t in new_spec.pop("taints", None) or []}
    for key, effect in old_taints:
        if (key, effect) not in new_taints:
            actions.append({"op": "untaint", "target": target, "key": key, "effect": effect})
    for key_effect, taint in new_taints.items():
        if old_taints.get(key_effect, {}) | {"timeAdded": None} != taint | {"timeAdded": None}:
            wanted = {name: taint[name] for name in ("key", "value", "effect") if name in taint}
            actions.append({"op": "taint", "target": target, "taint": wanted})
    return actions


def _scale_actions(target: str, before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    old = before.get("spec", {}).pop("replicas", None)
    new = after.get("spec", {}).pop("replicas", None)
    return [{"op": "scale", "target": target, "replicas": new}] if old != new and isinstance(new, int) else []


def _image_actions(target: str, before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """set-image for each container whose image alone changed (a template's or a bare pod's)."""
    old_containers, new_containers = _containers(before), _containers(after)
    if old_containers is None or new_containers is None or len(old_containers) != len(new_containers):
        return []
    actions: list[dict[str, Any]] = []
    for old, new in zip(old_containers, new_containers, strict=True):
        if old.get("name") == new.get("name") and old.get("image") != new.get("image"):
            actions.append(
                {"op": "set-image", "target": target, "container": new.get("name"), "image": new.get("image")}
            )
            old["image"] = new.get("image")
    return actions


def _containers(manifest: dict[str, Any]) -> list[dict[str, Any]] | None:
    spec = manifest.get("spec", {})
    template_spec = spec.get("template", {}).get("spec") if isinstance(spec.get("template"), dict) else None
    containers = (template_spec or {}).get("containers")
    return containers if isinstance(containers, list) else None


# ---------------------------------------------------------------------------- delete, scale


def _check_name(manifest: dict[str, Any], name: str) -> None:
    """An update or patch may not rename (the handlers' checkName)."""
    metadata = manifest.get("metadata") if isinstance(manifest.get("metadata"), dict) else {}
    given = metadata.get("name") if metadata else None
    if given not in (None, "", name):
        raise status.bad_request(f"the name of the object ({given}) does not match the name on the URL ({name})")


def _check_preconditions(resource: Resource, request: WriteRequest, current: dict[str, Any]) -> None:
    """DeleteOptions.preconditions: the uid and resourceVersion the client expects, else 409."""
    options = request.body if isinstance(request.body, dict) else {}
    preconditions = options.get("preconditions") if isinstance(options.get("preconditions"), dict) else {}
    if not preconditions:
        return
    metadata = current["metadata"]
    for field, shown in (("uid", "UID"), ("resourceVersion", "ResourceVersion")):
        wanted = preconditions.get(field)
        have = str(metadata.get(field, ""))
        if wanted is not None and str(wanted) != have:
            why = f"Precondition failed: {shown} in precondition: {wanted}, {shown} in object meta: {have}"
            raise status.conflict(resource, request.name, why)


def _delete(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> WriteResult:
    current = _current(snapshot, resource, request)
    _check_preconditions(resource, request, current)
    if current["metadata"].get("deletionTimestamp"):  # already going: the API answers with it as it is
        return WriteResult(200, current)
    action: dict[str, Any] = {"op": "delete", "target": _target_text(resource, request.namespace, request.name)}
    if request.grace_period is not None:
        action["gracePeriodSeconds"] = max(0, request.grace_period)
    done = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": {
            "name": request.name,
            "group": resource.group,
            "kind": resource.plural,
            "uid": current["metadata"].get("uid", ""),
        },
    }
    namespace = request.namespace if resource.namespaced else ""
    return WriteResult(200, done, [action], (resource.kind, namespace, request.name))


def _scale(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> WriteResult:
    if resource.kind not in SCALABLE:
        raise status.no_such_path()
    current = scale_of(snapshot, resource, find(snapshot, resource, request.namespace, request.name))
    if request.method == "PATCH":
        wanted = apply_patch(current, request.body, request.content_type.split(";")[0].strip(), "Scale")
    elif request.method == "PUT":
        wanted = _object_body(request.body, resource, kind="Scale")
    else:
        raise status.method_not_allowed()
    replicas = (wanted.get("spec") or {}).get("replicas") if isinstance(wanted, dict) else None
    if not isinstance(replicas, int) or isinstance(replicas, bool) or replicas < 0:
        cause = status.Cause(
            "FieldValueInvalid", f"Invalid value: {replicas}: must be greater than or equal to 0", "spec.replicas"
        )
        raise status.ApiError(
            422,
            "Invalid",
            f'Scale.autoscaling "{request.name}" is invalid: spec.replicas: {cause.message}',
            request.name,
            "autoscaling",
            "Scale",
            [cause],
        )
    body = copy.deepcopy(current)
    body["spec"]["replicas"] = replicas
    if replicas == current["spec"].get("replicas"):
        return WriteResult(200, body)
    action = {"op": "scale", "target": _target_text(resource, request.namespace, request.name), "replicas": replicas}
    return WriteResult(200, body, [action])


# ---------------------------------------------------------------------------- helpers


def _current(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> dict[str, Any]:
    return snapshot.manifest(find(snapshot, resource, request.namespace, request.name))


def _object_body(body: Any, resource: Resource, *, kind: str = "") -> dict[str, Any]:
    if not isinstance(body, dict) or not isinstance(body.get("metadata", {}), dict):
        raise status.bad_request("the body of the request was not an object with metadata")
    wanted_kind = kind or resource.kind
    if body.get("kind") not in (None, wanted_kind):
        raise status.bad_request(f'the kind "{str(body.get("kind"))[:40]}" of the body does not match {wanted_kind}')
    return body


def _namespace_for(resource: Resource, manifest: dict[str, Any], path_namespace: str) -> str:
    if not resource.namespaced:
        return ""
    written = str(manifest.get("metadata", {}).get("namespace") or "")
    if written and path_namespace and written != path_namespace:
        raise status.bad_request(
            "the namespace of the provided object does not match the namespace sent on the request"
        )
    return written or path_namespace or "default"


def _cleaned(manifest: dict[str, Any], resource: Resource, namespace: str) -> dict[str, Any]:
    """The object as a client may write it: its type, its namespace, no server-owned metadata."""
    cleaned = copy.deepcopy(manifest)
    cleaned["apiVersion"] = resource.group_version
    cleaned["kind"] = resource.kind
    metadata = cleaned.setdefault("metadata", {})
    if not isinstance(metadata, dict):
        raise status.bad_request("metadata of the object is not an object")
    for key in SERVER_METADATA:
        metadata.pop(key, None)
    if resource.namespaced:
        metadata["namespace"] = namespace
    else:
        metadata.pop("namespace", None)
    return cleaned


def _spec_and_meta(manifest: dict[str, Any]) -> dict[str, Any]:
    """What a write may change: everything but status (a subresource of its own) and the kind."""
    return {key: value for key, value in manifest.items() if key not in ("status", "apiVersion", "kind")}


def _check_parses(resource: Resource, name: str, manifest: dict[str, Any]) -> None:
    try:
        parse_object(manifest, f"{resource.kind} {name}")
    except ManifestError as error:
        reason = "FieldValueRequired" if error.message.startswith("Required value") else "FieldValueInvalid"
        raise status.invalid(resource, name, [status.Cause(reason, error.message, error.path)]) from None


def _target_text(resource: Resource, namespace: str, name: str) -> str:
    return f"{resource.kind}/{namespace}/{name}" if resource.namespaced else f"{resource.kind}/{name}"
