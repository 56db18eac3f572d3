"""`kubectl apply -f` and `kubectl create -f` in the console: the file's documents (pasted or chosen
in the page: the console cannot read the reader's disk or fetch a URL) written as the API writes
them. apply is server-side apply as the API approximates it (playground/kubeapi/writes.py: the
applied configuration merged in as a strategic merge patch; created if it does not exist); create
refuses an object that exists, with kubectl's "error when creating" wording."""

from collections.abc import Callable, Mapping
from typing import Any

import yaml

from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.resources import BY_KIND, Resource
from scheduler_core.kubeapi.write_types import WriteRequest
from scheduler_core.kubeapi.writes import APPLY, write
from scheduler_core.kubectl.flags import CommandError
from scheduler_core.kubectl.names import object_name

MAX_DOCUMENTS = 500  # one file's objects (a chart's worth)


def named_file(words: list[str]) -> str | None:
    """The file `-f` names in an apply or create command's words (kubectl dropped), or None."""
    if words[:1] not in (["apply"], ["create"]):
        return None
    for index, word in enumerate(words):
        if word in ("-f", "--filename") and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("--filename="):
            return word.partition("=")[2]
        if word.startswith("-f") and len(word) > 2:
            return word[2:].removeprefix("=")
    return None


def documents(name: str, text: str) -> list[dict[str, Any]]:
    """The file's objects (a List's items too), or kubectl's error naming the file and the line."""
    try:
        loaded = [doc for doc in yaml.safe_load_all(text) if doc is not None]
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise CommandError(
            f"error: error parsing {name}: error converting YAML to JSON: yaml: {line}{problem}"
        ) from None
    found: list[dict[str, Any]] = []
    for doc in loaded:
        if not isinstance(doc, dict):
            raise CommandError(f'error: error validating "{name}": error validating data: invalid object')
        if str(doc.get("kind", "")).endswith("List") and isinstance(doc.get("items"), list):
            found.extend(item for item in doc["items"] if isinstance(item, dict))
        else:
            found.append(doc)
    if len(found) > MAX_DOCUMENTS:
        raise CommandError(f"error: {name} holds {len(found)} objects: the console applies {MAX_DOCUMENTS} at most")
    if not found:
        raise CommandError("error: no objects passed to apply")
    return found


def resource_of(name: str, doc: dict[str, Any]) -> Resource:
    kind, api_version = str(doc.get("kind") or ""), str(doc.get("apiVersion") or "")
    if not kind or not api_version:
        missing = "kind" if not kind else "apiVersion"
        raise CommandError(
            f'error: error validating "{name}": error validating data: {missing} not set; if you choose to '
            "ignore these errors, turn validation off with --validate=false"
        )
    resource = BY_KIND.get(kind)
    if resource is None or resource.group_version != api_version:
        metadata = doc.get("metadata") or {}
        raise CommandError(
            f'error: resource mapping not found for name: "{metadata.get("name", "")}" namespace: '
            f'"{metadata.get("namespace", "")}" from "{name}": no matches for kind "{kind}" in version '
            f'"{api_version}"\nensure CRDs are installed first'
        )
    return resource


def apply_files(
    snapshot: ApiSnapshot,
    files: Mapping[str, str],
    names: list[str],
    namespace: str | None,
    *,
    create: bool,
    may_write: Callable[[Resource, str, str, str], None],
) -> tuple[list[str], list[dict[str, Any]], list[str]]:
    """Each file's objects written: (kubectl's lines, the timeline actions, error lines).
    `namespace` is the one -n names (None: not given); `may_write` raises Forbidden for a viewer."""
    lines: list[str] = []
    actions: list[dict[str, Any]] = []
    errors: list[str] = []
    for name in names:
        if name not in files:
            raise CommandError(f'error: the path "{name}" does not exist')
        for doc in documents(name, files[name]):
            resource = resource_of(name, doc)
            metadata: dict[str, Any] = doc["metadata"] if isinstance(doc.get("metadata"), dict) else {}
            own = str(metadata.get("namespace") or "")
            if resource.namespaced and namespace and own and own != namespace:
                raise CommandError(
                    f'error: the namespace from the provided object "{own}" does not match the namespace '
                    f"\"{namespace}\". You must pass '--namespace={own}' to perform this operation."
                )
            object_ns = (own or namespace or "default") if resource.namespaced else ""
            object_name_ = str(metadata.get("name") or "")
            existed = bool(object_name_) and snapshot.get(resource, object_ns, object_name_) is not None
            try:
                may_write(resource, object_name_, "create" if create or not existed else "patch", object_ns)
                if create:
                    result = write(snapshot, resource, WriteRequest("POST", object_ns, object_name_, body=doc))
                    outcome = "created"
                else:
                    if not object_name_:
                        raise CommandError(
                            "error: error when retrieving current configuration of:\n"
                            f'Resource: "{resource.group}/{resource.version}, Resource={resource.plural}", '
                            f'GroupVersionKind: "{resource.group}/{resource.version}, Kind={resource.kind}"\n'
                            f'Name: "", Namespace: "{object_ns}"\nfrom server for: "{name}": '
                            "resource name may not be empty"
                        )
                    request = WriteRequest("PATCH", object_ns, object_name_, content_type=APPLY, body=doc)
                    result = write(snapshot, resource, request)
                    outcome = ("configured" if result.actions else "unchanged") if existed else "created"
            except status.ApiError as error:
                verb = "creating" if create or not existed else "patching"
                errors.append(
                    f'Error from server ({error.reason or "Unknown"}): error when {verb} "{name}": {error.message}'
                )
                continue
            actions += result.actions
            lines.append(f"{object_name(resource, object_name_)} {outcome}")
    return lines, actions, errors
