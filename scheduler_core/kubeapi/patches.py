"""The three PATCH bodies the API server takes, applied to an object's decoded JSON (dicts, lists,
str, int, float, bool, None) the way Kubernetes v1.34 applies them, with the API server's errors:

- JSON merge patch (application/merge-patch+json, RFC 7386) as evanphx/json-patch's MergePatch;
- JSON patch (application/json-patch+json, RFC 6902) as evanphx/json-patch's Patch.Apply;
- strategic merge patch (application/strategic-merge-patch+json) as apimachinery's
  StrategicMergeMapPatch, steered by the patchStrategy/patchMergeKey struct tags in PATCH_METADATA.

Facts read upstream (semantics, directive names, error texts; the code here is our own):
- kubernetes/apimachinery v0.34.0 (b72d93d174332f952a8d431419fece5e6f044bcb):
  pkg/util/strategicpatch/{patch,meta,errors,patch_test}.go, pkg/util/mergepatch/errors.go,
  pkg/api/errors/errors.go (NewBadRequest, NewGenericServerResponse's 422 text).
- kubernetes/api v0.34.0 (ae6c3b911ef17a4e2b10922c745c6f35bcf9b78e): the struct tags of core/v1,
  apps/v1, batch/v1, policy/v1, autoscaling/v2, admissionregistration/v1, flowcontrol/v1,
  networking/v1, resource/v1, storage/v1 types.go; meta/v1's ObjectMeta tags from apimachinery.
- kubernetes/apiserver v0.34.0 (8335e368b67ae5489e4369fb2af0dcdd56b1573a):
  pkg/endpoints/handlers/patch.go (which error is a 400, a 422 or passed on as a bare 500; the
  10000-operation cap), pkg/server/config.go (the 3 MiB budget for JSON-patch copies).
- evanphx/json-patch v4.12.0 (50fdc0b4c9ab36933e6a0c9288fef3ac5df2b907): patch.go, merge.go,
  errors.go and their tests. apiserver v0.34 imports gopkg.in/evanphx/json-patch.v4 at v4.12.0,
  not v5, so v4's quirks hold: "replace" of a missing object key adds it, negative array indices
  count from the end, a test of a missing key against null passes.
These are the staging copies of kubernetes/kubernetes v1.34.0; none of the files changed through
v0.34.10.
"""

import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, NamedTuple

__all__ = [
    "JSON_PATCH_MAX_COPY_BYTES",
    "JSON_PATCH_MAX_OPERATIONS",
    "PATCH_METADATA",
    "FieldPatch",
    "PatchError",
    "json_merge_patch",
    "json_patch",
    "strategic_merge_patch",
]

JSON_PATCH_MAX_OPERATIONS = 10000  # apiserver's maxJSONPatchOperations
JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024  # apiserver's default JSONPatchMaxCopyBytes


class PatchError(ValueError):
    """str(error) is the message of the API server's error; `code` 400 (malformed patch), 422 (a
    patch that cannot apply: a failed JSON-patch test, a missing path), 413 (more operations than
    the API server takes) or 500 (a library error the API server passes on unwrapped, such as a
    list element without its merge key). `reason` is the Status reason ("" is Unknown); `detail`
    the library's own words, which the 422 Status does not carry."""

    code: int
    reason: str
    detail: str

    def __init__(self, code: int, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.reason = {400: "BadRequest", 413: "RequestEntityTooLarge", 422: "Invalid"}.get(code, "")
        self.detail = detail or message


# NewGenericServerResponse(422, ...) keeps only this: the library's words are dropped.
_UNPROCESSABLE = "the server rejected our request due to an error in our request"


def _bad_request(message: str) -> PatchError:
    return PatchError(400, message)


def _unprocessable(detail: str) -> PatchError:
    return PatchError(422, _UNPROCESSABLE, detail)


def _unwrapped(message: str) -> PatchError:
    return PatchError(500, message)


# --- how Go prints decoded JSON in the error texts ---------------------------------------------


_GO_TYPES = {
    dict: "map[string]interface {}",
    list: "[]interface {}",
    str: "string",
    bool: "bool",
    int: "int64",  # the API server decodes integers as int64, other numbers as float64
    float: "float64",
}


def _go_type(value: Any) -> str:
    """What reflect.TypeOf prints for a decoded value (and fmt for a nil one)."""
    return _GO_TYPES.get(type(value), "%!s(<nil>)")


def _go_float(number: float) -> str:
    """%v of a float64: shortest digits, exponent form outside 1e-4 <= |x| < 1e6."""
    if number == 0:
        return "0"
    _, digits, exponent = Decimal(repr(abs(number))).as_tuple()
    text = "".join(map(str, digits)).rstrip("0")
    assert isinstance(exponent, int)
    point = len(digits) + exponent  # the decimal point sits after `point` digits
    sign_text = "-" if number < 0 else ""
    if point - 1 < -4 or point - 1 >= 6:
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        return f"{sign_text}{mantissa}e{point - 1:+03d}"
    if point <= 0:
        return f"{sign_text}0.{'0' * -point}{text}"
    if point >= len(text):
        return sign_text + text + "0" * (point - len(text))
    return f"{sign_text}{text[:point]}.{text[point:]}"


def _go(value: Any, verb: str = "v") -> str:
    """fmt's %v (or %s) of a decoded JSON value: map[k:v ...] with sorted keys, [a b], <nil>."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "map[" + " ".join(f"{key}:{_go(value[key], verb)}" for key in sorted(value)) + "]"
    if isinstance(value, list):
        return "[" + " ".join(_go(item, verb) for item in value) + "]"
    if value is None:
        return "<nil>" if verb == "v" else "%!s(<nil>)"
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    text = _go_float(value) if isinstance(value, float) else text
    return text if verb == "v" else f"%!s({_go_type(value)}={text})"


def _json_kind(value: Any) -> str:
    """The word encoding/json's UnmarshalTypeError uses for a JSON value."""
    if isinstance(value, bool):
        return "bool"
    kinds = {dict: "object", list: "array", str: "string", int: "number", float: "number"}
    return kinds.get(type(value), "null")


def _same(left: Any, right: Any) -> bool:
    """Go's == on two decoded values: 1 and 1.0 (int64, float64) or true and 1 differ."""
    return type(left) is type(right) and left == right


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clone(item) for item in value]
    return value


# --- JSON merge patch (RFC 7386, evanphx/json-patch v4 MergePatch) ----------------------------


def json_merge_patch(original: Any, patch: Any) -> Any:
    """RFC 7386: null deletes a key, an object merges, anything else replaces. Nulls in newly
    added objects are pruned (also in objects inside new arrays); a top-level patch that is
    neither an object nor an array is "Invalid JSON Patch" (400)."""
    if original is None:
        raise _unwrapped("Invalid JSON Document")
    if not isinstance(patch, dict | list):
        raise _bad_request("Invalid JSON Patch")
    if isinstance(patch, list) or not isinstance(original, dict):
        return _prune_nulls(_clone(patch))
    return _merge_objects(_clone(original), _clone(patch))


def _merge_objects(document: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    for key, value in patch.items():
        if value is None:
            document.pop(key, None)
        elif document.get(key) is None:
            document[key] = _prune_nulls(value)
        else:
            document[key] = _merge_value(document[key], value)
    return document


def _merge_value(current: Any, patch: Any) -> Any:
    if not isinstance(current, dict):
        return _prune_nulls(patch)
    if not isinstance(patch, dict):
        return patch  # v4 leaves this one unpruned
    return _merge_objects(current, patch)


def _prune_nulls(value: Any) -> Any:
    """Drop null members of objects, at any depth; nulls in arrays stay."""
    if isinstance(value, dict):
        for key in [key for key, item in value.items() if item is None]:
            del value[key]
        for item in value.values():
            _prune_nulls(item)
    elif isinstance(value, list):
        for item in value:
            _prune_nulls(item)
    return value


# --- JSON patch (RFC 6902, evanphx/json-patch v4.12.0) ----------------------------------------


class _OpError(Exception):
    """A JSON-patch operation that fails, in the library's words."""


class _Document:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.copied = 0  # bytes added by "copy" so far, against JSON_PATCH_MAX_COPY_BYTES


def json_patch(original: Any, operations: Any) -> Any:
    """RFC 6902 as the API server applies it: a decoding problem is a 400, too many operations a
    413, any failing operation (a test, a missing path, a bad index) a 422."""
    decoded = _decode_operations(operations)
    if len(decoded) > JSON_PATCH_MAX_OPERATIONS:
        raise PatchError(
            413,
            "Request entity too large: The allowed maximum operations in a JSON patch is "
            f"{JSON_PATCH_MAX_OPERATIONS}, got {len(decoded)}",
        )
    document = _Document(_clone(original))
    try:
        for operation in decoded:
            _apply_operation(document, operation)
    except _OpError as error:
        raise _unprocessable(str(error)) from None
    return document.root


def _decode_operations(operations: Any) -> list[dict[str, Any]]:
    if operations is None:
        return []
    if not isinstance(operations, list):
        raise _bad_request(f"json: cannot unmarshal {_json_kind(operations)} into Go value of type jsonpatch.Patch")
    for operation in operations:
        if operation is not None and not isinstance(operation, dict):
            kind = _json_kind(operation)
            raise _bad_request(f"json: cannot unmarshal {kind} into Go value of type jsonpatch.Operation")
    return [_clone(operation) or {} for operation in operations]


def _apply_operation(document: _Document, operation: dict[str, Any]) -> None:
    kind = operation.get("op")
    kind = kind if isinstance(kind, str) else "unknown"
    handler = _OPERATIONS.get(kind)
    if handler is None:
        raise _OpError(f"Unexpected kind: {kind}")
    handler(document, operation)


@contextmanager
def _wrapping(prefix: str) -> Iterator[None]:
    """errors.Wrapf: the library prefixes a cause with where it happened."""
    try:
        yield
    except _OpError as error:
        raise _OpError(f"{prefix}: {error}") from None


def _member(operation: dict[str, Any], name: str, wrap: str, keep_cause: bool = True) -> str:
    """The "path" or "from" member; some operations report only "missing value" for a bad one."""
    value = operation.get(name)
    if isinstance(value, str):
        return value
    if value is not None:
        cause = f"json: cannot unmarshal {_json_kind(value)} into Go value of type string"
    else:
        cause = "operation missing path field" if name == "path" else "operation, missing from field"
        cause += ": missing value"
    raise _OpError(f"{wrap}: {cause if keep_cause else 'missing value'}")


def _unescape(token: str) -> str:
    """RFC 6901: ~1 is "/" and ~0 is "~", decoded in one left-to-right pass."""
    return re.sub("~[01]", lambda match: "/" if match.group() == "~1" else "~", token)


def _find_parent(root: Any, path: str) -> tuple[Any, str] | None:
    """The container a pointer's last token addresses, and that token; None if a step is missing.
    Like the library, this ignores what comes before the first "/"."""
    tokens = path.split("/")
    if len(tokens) < 2:
        return None
    node = root
    for token in tokens[1:-1]:
        try:
            node = _get(node, _unescape(token))
        except _OpError:
            return None
        if not isinstance(node, dict | list):
            return None
    return node, _unescape(tokens[-1])


def _atoi(token: str) -> int:
    """strconv.Atoi: an optional sign and decimal digits, within int64."""
    quoted = '"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if not re.fullmatch(r"[+-]?[0-9]+", token):
        raise _OpError(f"strconv.Atoi: parsing {quoted}: invalid syntax")
    number = int(token)
    if not -(2**63) <= number < 2**63:
        raise _OpError(f"strconv.Atoi: parsing {quoted}: value out of range")
    return number


def _bad_index(index: int) -> _OpError:
    return _OpError(f"Unable to access invalid index: {index}: invalid index referenced")


def _from_end(index: int, size: int) -> int:
    """A negative index counts from the end (v4's SupportNegativeIndices, on by default)."""
    if index < -size:
        raise _bad_index(index)
    return index + size if index < 0 else index


def _get(container: Any, key: str) -> Any:
    if isinstance(container, dict):
        return container.get(key)  # a missing key reads as null
    if not isinstance(container, list):
        raise _OpError("invalid state detected")
    index = _from_end(_atoi(key), len(container))
    if index >= len(container):
        raise _bad_index(index)
    return container[index]


def _insert(container: Any, key: str, value: Any) -> None:
    if isinstance(container, dict):
        container[key] = value
        return
    if key == "-":
        container.append(value)
        return
    try:
        index = _atoi(key)
    except _OpError as error:
        raise _OpError(f"value was not a proper array index: '{key}': {error}") from None
    if index >= len(container) + 1:
        raise _bad_index(index)
    container.insert(_from_end(index, len(container) + 1), value)


def _remove(container: Any, key: str) -> None:
    if isinstance(container, dict):
        if key not in container:
            raise _OpError(f"Unable to remove nonexistent key: {key}: missing value")
        del container[key]
        return
    index = _atoi(key)
    if index >= len(container):
        raise _bad_index(index)
    del container[_from_end(index, len(container))]


def _set(container: Any, key: str, value: Any) -> None:
    if isinstance(container, dict):
        container[key] = value
    else:
        container[_from_end(_atoi(key), len(container))] = value


def _parent_or_fail(root: Any, path: str, message: str) -> tuple[Any, str]:
    found = _find_parent(root, path)
    if found is None:
        raise _OpError(f"{message}: missing value")
    return found


def _add(document: _Document, operation: dict[str, Any]) -> None:
    path = _member(operation, "path", "add operation failed to decode path", keep_cause=False)
    container, key = _parent_or_fail(
        document.root, path, f'add operation does not apply: doc is missing path: "{path}"'
    )
    with _wrapping(f"error in add for path: '{path}'"):
        _insert(container, key, operation.get("value"))


def _remove_op(document: _Document, operation: dict[str, Any]) -> None:
    path = _member(operation, "path", "remove operation failed to decode path", keep_cause=False)
    container, key = _parent_or_fail(
        document.root, path, f'remove operation does not apply: doc is missing path: "{path}"'
    )
    with _wrapping(f"error in remove for path: '{path}'"):
        _remove(container, key)


def _replace(document: _Document, operation: dict[str, Any]) -> None:
    path = _member(operation, "path", "replace operation failed to decode path")
    value = operation.get("value")
    if path == "":
        if isinstance(value, dict | list):
            document.root = value
        return  # v4 "fails" a scalar root with a wrapped nil error, which is no error at all
    container, key = _parent_or_fail(
        document.root, path, f"replace operation does not apply: doc is missing path: {path}"
    )
    try:
        _get(container, key)  # an object's missing key passes: v4 then adds it
    except _OpError:
        raise _OpError(f"replace operation does not apply: doc is missing key: {path}: missing value") from None
    with _wrapping(f"error in remove for path: '{path}'"):  # sic: the library says "remove"
        _set(container, key, value)


def _move(document: _Document, operation: dict[str, Any]) -> None:
    source = _member(operation, "from", "move operation failed to decode from")
    message = f"move operation does not apply: doc is missing from path: {source}"
    container, key = _parent_or_fail(document.root, source, message)
    with _wrapping(f"error in move for path: '{key}'"):
        value = _get(container, key)
        _remove(container, key)
    path = _member(operation, "path", "move operation failed to decode path")
    message = f"move operation does not apply: doc is missing destination path: {path}"
    container, key = _parent_or_fail(document.root, path, message)
    with _wrapping(f"error in move for path: '{path}'"):
        _insert(container, key, value)


def _test(document: _Document, operation: dict[str, Any]) -> None:
    path = _member(operation, "path", "test operation failed to decode path")
    if path == "":
        actual = document.root
    else:
        container, key = _parent_or_fail(document.root, path, f"test operation does not apply: is missing path: {path}")
        with _wrapping(f"error in test for path: '{path}'"):
            actual = _get(container, key)
    # A missing key and a null both read as null. Without "value" the library fails (or, on a
    # missing key, crashes); here both fail.
    if "value" not in operation or not _json_equal(actual, operation["value"]):
        raise _OpError(f"testing value {path} failed: test failed")


def _copy(document: _Document, operation: dict[str, Any]) -> None:
    source = _member(operation, "from", "copy operation failed to decode from")
    message = f"copy operation does not apply: doc is missing from path: {source}"
    container, key = _parent_or_fail(document.root, source, message)
    with _wrapping(f"error in copy for from: '{source}'"):
        value = _get(container, key)
    path = _member(operation, "path", "copy operation failed to decode path", keep_cause=False)
    message = f"copy operation does not apply: doc is missing destination path: {path}"
    container, key = _parent_or_fail(document.root, path, message)
    document.copied += _encoded_size(value)
    if 0 < JSON_PATCH_MAX_COPY_BYTES < document.copied:
        raise _OpError(
            f"Unable to complete the copy, the accumulated size increase of copy is {document.copied}, "
            f"exceeding the limit {JSON_PATCH_MAX_COPY_BYTES}"
        )
    with _wrapping("error while adding value during copy"):
        _insert(container, key, _clone(value))


def _encoded_size(value: Any) -> int:
    """Bytes of encoding/json's compact output; it writes <, > and & as \\u003c and so on."""
    if value is None:
        return 0  # the library copies nothing for a missing or null source
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return len(text.encode()) + 5 * sum(text.count(char) for char in "<>&")


def _json_equal(left: Any, right: Any) -> bool:
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(_json_equal(left[key], right[key]) for key in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(_json_equal, left, right))
    return _same(left, right)


_OPERATIONS: dict[str, Callable[[_Document, dict[str, Any]], None]] = {
    "add": _add,
    "remove": _remove_op,
    "replace": _replace,
    "move": _move,
    "test": _test,
    "copy": _copy,
}


# --- strategic merge patch: the struct tags --------------------------------------------------


class FieldPatch(NamedTuple):
    """A field's patchStrategy tag (comma-separated there) and patchMergeKey tag."""

    strategies: tuple[str, ...] = ()
    merge_key: str = ""

    @property
    def strategy(self) -> str:
        """The strategy proper: merge, replace or none (maps merge, lists replace). retainKeys only
        tells clients to send $retainKeys; applying honours that directive wherever it appears."""
        return next((name for name in self.strategies if name != "retainKeys"), "")


def _merge(key: str = "", retain_keys: bool = False) -> FieldPatch:
    return FieldPatch(("merge", "retainKeys") if retain_keys else ("merge",), key)


def _under(prefix: str, table: Mapping[str, FieldPatch]) -> dict[str, FieldPatch]:
    return {f"{prefix}.{path}": tags for path, tags in table.items()}


# Paths are dotted field names from the object's root; a list's elements add no step. Fields
# missing here have no tags: their maps merge and their lists replace. Untagged on purpose, as
# upstream: PodSpec.tolerations and readinessGates, Container.resizePolicy, NodeSpec.taints,
# NamespaceSpec.finalizers, DaemonSetSpec.updateStrategy, StatefulSet's volumeClaimTemplates.
_OBJECT_META = {"ownerReferences": _merge("uid"), "finalizers": _merge()}
_CONTAINER = {
    "ports": _merge("containerPort"),
    "env": _merge("name"),
    "volumeMounts": _merge("mountPath"),
    "volumeDevices": _merge("devicePath"),
}
_POD_SPEC = {
    "volumes": _merge("name", retain_keys=True),
    "initContainers": _merge("name"),
    **_under("initContainers", _CONTAINER),
    "containers": _merge("name"),
    **_under("containers", _CONTAINER),
    "ephemeralContainers": _merge("name"),
    **_under("ephemeralContainers", _CONTAINER),
    "imagePullSecrets": _merge("name"),
    "hostAliases": _merge("ip"),
    "topologySpreadConstraints": _merge("topologyKey"),
    "schedulingGates": _merge("name"),
    "resourceClaims": _merge("name", retain_keys=True),
}
_POD_STATUS = {
    "conditions": _merge("type"),
    "hostIPs": _merge("ip"),
    "podIPs": _merge("ip"),
    "resourceClaimStatuses": _merge("name", retain_keys=True),
}
_POD_TEMPLATE = {**_under("metadata", _OBJECT_META), **_under("spec", _POD_SPEC)}
_CONDITIONS = {"conditions": _merge("type")}
_WEBHOOKS = {"webhooks": _merge("name"), "webhooks.matchConditions": _merge("name")}


def _kind(**parts: Mapping[str, FieldPatch]) -> dict[str, FieldPatch]:
    """A kind's table: ObjectMeta at metadata, plus tables at paths ("spec__template" is
    spec.template; "root" is the object itself)."""
    table = _under("metadata", _OBJECT_META)
    for prefix, part in parts.items():
        table |= dict(part) if prefix == "root" else _under(prefix.replace("__", "."), part)
    return table


_WORKLOAD = _kind(spec__template=_POD_TEMPLATE, status=_CONDITIONS)

PATCH_METADATA: dict[str, dict[str, FieldPatch]] = {
    "Pod": _kind(spec=_POD_SPEC, status=_POD_STATUS),
    "PodTemplate": _kind(template=_POD_TEMPLATE),
    "ReplicationController": _WORKLOAD,
    "Node": _kind(spec={"podCIDRs": _merge()}, status={**_CONDITIONS, "addresses": _merge("type")}),
    "Namespace": _kind(status=_CONDITIONS),
    "Service": _kind(spec={"ports": _merge("port")}, status=_CONDITIONS),
    "ServiceAccount": _kind(root={"secrets": _merge("name")}),
    "PersistentVolumeClaim": _kind(status=_CONDITIONS),
    "ComponentStatus": _kind(root=_CONDITIONS),
    "Deployment": _kind(
        spec={"strategy": FieldPatch(("retainKeys",))}, spec__template=_POD_TEMPLATE, status=_CONDITIONS
    ),
    "ReplicaSet": _WORKLOAD,
    "StatefulSet": _WORKLOAD,
    "DaemonSet": _WORKLOAD,
    "Job": _WORKLOAD,
    "CronJob": _kind(spec__jobTemplate__metadata=_OBJECT_META, spec__jobTemplate__spec__template=_POD_TEMPLATE),
    "PodDisruptionBudget": _kind(spec={"selector": FieldPatch(("replace",))}, status=_CONDITIONS),
    "HorizontalPodAutoscaler": _kind(status=_CONDITIONS),  # autoscaling/v2
    "ValidatingWebhookConfiguration": _kind(root=_WEBHOOKS),
    "MutatingWebhookConfiguration": _kind(root=_WEBHOOKS),
    "ValidatingAdmissionPolicy": _kind(spec={"matchConditions": _merge("name"), "variables": _merge("name")}),
    "FlowSchema": _kind(status=_CONDITIONS),
    "PriorityLevelConfiguration": _kind(status=_CONDITIONS),
    "ServiceCIDR": _kind(status=_CONDITIONS),
    "ResourceClaim": _kind(status={"reservedFor": _merge("uid")}),
    "CSINode": _kind(spec={"drivers": _merge("name")}),
}
_ANY_KIND = _kind()  # every object has ObjectMeta

# --- strategic merge patch: applying it (StrategicMergeMapPatch) -----------------------------

_DIRECTIVE = "$patch"
_RETAIN_KEYS = "$retainKeys"
_ORDER_PREFIX = "$setElementOrder"
_DELETE_PREFIX = "$deleteFromPrimitiveList"
_PREFIX_ERRORS = {
    _ORDER_PREFIX: "invalid patch format of setElementOrder list",
    _DELETE_PREFIX: "invalid patch format of primitive list",
}


def strategic_merge_patch(original: Any, patch: Any, kind: str) -> Any:
    """Apply a strategic merge patch to an object of `kind` as the API server does."""
    if patch is None:
        patch = {}
    if not isinstance(patch, dict):
        raise _bad_request(
            f"json: cannot unmarshal {_json_kind(patch)} into Go value of type map[string]interface {{}}"
        )
    base = _clone(original) if isinstance(original, dict) else {}
    return _Merger(PATCH_METADATA.get(kind, _ANY_KIND)).merge_map(base, _clone(patch), ())


def _no_merge_key(item: dict[str, Any], key: str) -> PatchError:
    return _unwrapped(f"map: {_go(item)} does not contain declared merge key: {key}")


def _bad_arg_type(expected: Any, actual: Any) -> PatchError:
    return _unwrapped(f"expected a {_go_type(expected)}, but received a {_go_type(actual)}")


def _bad_patch_type(directive: Any, item: dict[str, Any]) -> PatchError:
    return _unwrapped(f"unknown patch type: {_go(directive, 's')} in map: {_go(item)}")


def _directive_target(key: str, prefix: str) -> str:
    """The field a "$setElementOrder/<field>" or "$deleteFromPrimitiveList/<field>" key names."""
    head, slash, field = key.partition("/")
    if not slash or head != prefix:
        raise _bad_request(_PREFIX_ERRORS[prefix])
    return field


def _has_delete_directive(item: Any) -> bool:
    return isinstance(item, dict) and item.get(_DIRECTIVE) == "delete"


def _map_directive(patch: dict[str, Any]) -> dict[str, Any]:
    """$patch on a map: replace keeps the patch as it is, delete leaves an empty map."""
    directive = patch[_DIRECTIVE]
    if directive == "replace":
        del patch[_DIRECTIVE]
        return patch
    if directive == "delete":
        return {}
    raise _bad_patch_type(directive, patch)


def _apply_retain_keys(original: dict[str, Any], patch: dict[str, Any]) -> None:
    """$retainKeys: drop the original's other keys; the patch may only set listed keys."""
    if _RETAIN_KEYS not in patch:
        return
    kept = patch.pop(_RETAIN_KEYS)
    if not isinstance(kept, list):
        raise _bad_request("invalid patch format of retainKeys")
    for key, value in patch.items():
        exempt = value is None or key.startswith((_DELETE_PREFIX, _ORDER_PREFIX))
        if not exempt and key not in kept:
            raise _bad_request("invalid patch format of retainKeys")
    for key in [key for key in original if key not in kept]:
        del original[key]


def _drop_nulls(value: Any) -> None:
    """Nulls only delete; inside a value the original lacks, they are dropped."""
    children = value if isinstance(value, list) else []
    if isinstance(value, dict):
        for key in [key for key, item in value.items() if item is None]:
            del value[key]
        children = list(value.values())
    for child in children:
        _drop_nulls(child)


def _without_directives(value: Any) -> tuple[Any, bool]:
    """A new value loses every map that carries $patch; the bool says whether anything is left."""
    if isinstance(value, dict):
        if _DIRECTIVE in value:
            return None, False
        for key in list(value):
            value[key], keep = _without_directives(value[key])
            if not keep:
                del value[key]
    elif isinstance(value, list):
        value = [item for item, keep in map(_without_directives, value) if keep]
    return value, True


def _take(original: dict[str, Any], field: str, value: Any) -> None:
    """A patch value that merges with nothing: it goes in cleaned, or its directive removes it."""
    _drop_nulls(value)
    value, keep = _without_directives(value)
    if keep:
        original[field] = value
    else:
        original.pop(field, None)


def _element_kind(original: list[Any], patch: list[Any]) -> str:
    """The lists' one element type, "map" or "scalar"."""
    values = [*original, *patch]
    if not values:
        raise _unwrapped("no elements in any of the given slices")
    if isinstance(values[0], list):
        raise _unprocessable("lists of lists are not supported")
    if any(type(value) is not type(values[0]) for value in values[1:]):
        raise _unwrapped(f"list element types are not identical: {_go([original, patch])}")
    return "map" if isinstance(values[0], dict) else "scalar"


def _dedupe_scalars(values: list[Any]) -> list[Any]:
    """The library's in-place dedupe, which moves the last element into each duplicate's slot;
    the ordering pass afterwards makes the moves mostly invisible."""
    values = list(values)
    last = len(values) - 1
    i = 0
    while i < last:
        j = i + 1
        while j <= last:
            if _same(values[i], values[j]):
                values[j] = values[last]
                del values[last]
                last -= 1
                j -= 1
            j += 1
        i += 1
    return values


def _find_by_key(items: list[Any], key: str, value: Any) -> int:
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise _unwrapped(f"value for key {index} is not a map")
        if key in item and _same(item[key], value):
            return index
    return -1


def _position(order: list[Any], item: Any, key: str, kind: str) -> int:
    """Where `item` stands in `order`: by merge key for maps, by value for scalars; -1 if absent."""

    def identity(value: Any) -> Any:
        return (value.get(key) if isinstance(value, dict) else None) if kind == "map" else value

    wanted = identity(item)
    return next((index for index, value in enumerate(order) if _same(identity(value), wanted)), -1)


def _partition(merged: list[Any], listed: list[Any], key: str) -> tuple[list[Any], list[Any]]:
    """Split merged items into those `listed` names (by merge key, or value) and the rest."""
    named: list[Any] = []
    others: list[Any] = []
    for item in merged:
        if key:
            if not isinstance(item, dict):
                raise _bad_arg_type({}, item)
            if key not in item:
                raise _no_merge_key(item, key)
            found = _find_by_key(listed, key, item[key]) >= 0
        else:
            found = any(_same(item, value) for value in listed)
        (named if found else others).append(item)
    return named, others


def _sort_like(items: list[Any], order: list[Any], key: str, kind: str) -> list[Any]:
    """Items in the order `order` has them; "$patch: delete" items go last."""
    deleted: list[Any] = []
    if kind == "map":
        for item in [*items, *order]:
            if not isinstance(item, dict):
                raise _bad_arg_type({}, item)
            if key not in item:
                raise _no_merge_key(item, key)
        deleted = [item for item in items if _has_delete_directive(item)]
        items = [item for item in items if not _has_delete_directive(item)]
    positions = [_position(order, item, key, kind) for item in items]
    if min(positions, default=0) >= 0:  # sorted() is stable, as sort.SliceStable is
        ranked = sorted(zip(positions, items, strict=True), key=lambda pair: pair[0])
        return [item for _, item in ranked] + deleted
    return _insertion_sort(items, positions) + deleted


def _insertion_sort(items: list[Any], positions: list[int]) -> list[Any]:
    """sort.SliceStable's insertion sort, whose "less" also holds when either item is unranked."""
    pairs = list(zip(positions, items, strict=True))
    for i in range(1, len(pairs)):
        j = i
        while j > 0 and (pairs[j][0] < 0 or pairs[j - 1][0] < 0 or pairs[j][0] < pairs[j - 1][0]):
            pairs[j], pairs[j - 1] = pairs[j - 1], pairs[j]
            j -= 1
    return [item for _, item in pairs]


def _interleave(server: list[Any], patched: list[Any], live: list[Any], key: str, kind: str) -> list[Any]:
    """Merge two ordered lists: a server-only item goes first only when the live list has it
    before the next patched item."""
    result: list[Any] = []
    i = j = 0
    while i < len(server) or j < len(patched):
        if j < len(patched) and i < len(server):
            left, right = _position(live, server[i], key, kind), _position(live, patched[j], key, kind)
            take_server = 0 <= left < right
        else:
            take_server = i < len(server)
        result.append(server[i] if take_server else patched[j])
        i, j = (i + 1, j) if take_server else (i, j + 1)
    return result


def _arrange(
    patched: list[Any], server: list[Any], patch_order: list[Any], live: list[Any], key: str, kind: str
) -> list[Any]:
    """The order upstream gives a merged list: patched items as the patch (or $setElementOrder)
    orders them, server-only items as the live list does, interleaved."""
    patched = _sort_like(patched, patch_order, key, kind)
    server = _sort_like(server, live, key, kind)
    return _interleave(server, patched, live, key, kind)


def _check_order(patch_list: list[Any], order: list[Any], key: str) -> None:
    """The patch's items must appear in $setElementOrder, in the same relative order."""
    if not order or not patch_list:
        return
    if key:
        for item in patch_list:
            if not isinstance(item, dict):
                raise _bad_arg_type({}, item)
    items = [item for item in patch_list if not _has_delete_directive(item)] if key else patch_list
    p = s = 0
    while p < len(items) and s < len(order):
        if isinstance(items[p], dict) and _DIRECTIVE in items[p]:
            p += 1
            continue
        p += _merge_key_equal(items[p], order[s], key)
        s += 1
    if p < len(items):
        raise _unwrapped(
            f"The order in patch list:\n{_go(patch_list)}\n doesn't match {_ORDER_PREFIX} list:\n{_go(order)}\n"
        )


def _merge_key_equal(left: Any, right: Any, key: str) -> bool:
    if not key:
        return _same(left, right)
    for item in (left, right):
        if not isinstance(item, dict):
            raise _bad_arg_type({}, item)
        if key not in item:
            raise _no_merge_key(item, key)
    return _same(left[key], right[key])


class _MergedList(NamedTuple):
    items: list[Any]
    # What the library's aliased view of the live list holds afterwards: it deletes and appends
    # in place, so $setElementOrder ordering sees survivors, then new items, then stale slots.
    live_view: list[Any]


class _Merger:
    def __init__(self, table: Mapping[str, FieldPatch]) -> None:
        self.table = table

    def tags(self, path: tuple[str, ...], field: str) -> FieldPatch:
        return self.table.get(".".join((*path, field)), FieldPatch())

    def merge_map(self, original: dict[str, Any], patch: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        if _DIRECTIVE in patch:
            return _map_directive(patch)
        _apply_retain_keys(original, patch)
        for key in [key for key in patch if key.startswith(_ORDER_PREFIX)]:
            self.apply_order(original, patch, key, path)
        for key, value in list(patch.items()):
            self.merge_field(original, key, value, path)
        return original

    def merge_field(self, original: dict[str, Any], key: str, value: Any, path: tuple[str, ...]) -> None:
        deleting = key.startswith(_DELETE_PREFIX)
        field = (_directive_target(key, _DELETE_PREFIX) or key) if deleting else key
        if value is None:
            original.pop(field, None)
        elif field not in original or type(original[field]) is not type(value):
            if not deleting:
                _take(original, field, value)
        elif isinstance(value, dict):
            replace = self.tags(path, field).strategy == "replace"
            original[field] = value if replace else self.merge_map(original[field], value, (*path, field))
        elif isinstance(value, list):
            original[field] = self.merge_list(original[field], value, (*path, field), deleting).items
        else:
            original[field] = value

    def merge_list(self, current: list[Any], patch: list[Any], path: tuple[str, ...], deleting: bool) -> _MergedList:
        tags = self.tags(path[:-1], path[-1])
        if tags.strategy != "merge" and not deleting:
            return _MergedList(patch, current)
        if not current and not patch:
            return _MergedList(current, current)
        kind = _element_kind(current, patch)
        if kind == "map":
            return self.merge_map_list(current, patch, tags.merge_key, path)
        if deleting:
            return _MergedList([item for item in current if not any(_same(item, gone) for gone in patch)], current)
        named, others = _partition(_dedupe_scalars(current + patch), patch, "")
        return _MergedList(_arrange(named, others, patch, current, "", kind), current)

    def merge_map_list(self, current: list[Any], patch: list[Any], key: str, path: tuple[str, ...]) -> _MergedList:
        if not key:
            raise _unwrapped("cannot merge lists without merge key for struct")
        live, survivors, rest, replace = self.apply_list_directives(current, patch, key)
        if replace:
            return _MergedList(_arrange([], rest, [], rest, key, "map"), live)
        array, length = live, survivors
        for item in rest:
            if key not in item:
                raise _no_merge_key(item, key)
            index = _find_by_key(array[:length], key, item[key])
            if index >= 0:
                array[index] = self.merge_map(array[index], item, path)
            elif length < len(array):  # room left by deletions: the live view sees the new item
                array[length] = item
                length += 1
            else:
                array, length = [*array[:length], item], length + 1
        named, others = _partition(array[:length], rest, key)
        return _MergedList(_arrange(named, others, rest, live[:survivors], key, "map"), live)

    @staticmethod
    def apply_list_directives(current: list[Any], patch: list[Any], key: str) -> tuple[list[Any], int, list[Any], bool]:
        """Handle "$patch" list items: delete removes every item with that merge key (in place,
        shifting the rest left), replace makes the other patch items the whole list, merge is an
        error. Returns the live array, how many survived, the plain patch items, and replace."""
        live, length = list(current), len(current)
        rest: list[Any] = []
        replace = False
        for item in patch:
            if _DIRECTIVE not in item:
                rest.append(item)
                continue
            directive = item[_DIRECTIVE]
            if directive == "delete":
                if key not in item:
                    raise _no_merge_key(item, key)
                while (index := _find_by_key(live[:length], key, item[key])) >= 0:
                    live[index : length - 1] = live[index + 1 : length]
                    length -= 1
            elif directive == "replace":
                replace = True
            elif directive == "merge":
                raise _unwrapped("merging lists cannot yet be specified in the patch")
            else:
                raise _bad_patch_type(directive, item)
        return live, length, rest, replace

    def apply_order(self, original: dict[str, Any], patch: dict[str, Any], key: str, path: tuple[str, ...]) -> None:
        """$setElementOrder/<field>: merge the field's patch list, then order the result."""
        order = patch.pop(key)
        if not isinstance(order, list):
            raise _bad_arg_type([], order)
        field = _directive_target(key, _ORDER_PREFIX)
        in_original, in_patch = field in original, field in patch
        for value, present in ((original.get(field), in_original), (patch.get(field), in_patch)):
            if present and not isinstance(value, list):
                raise _bad_arg_type([], value)
        current: list[Any] = original.get(field) or []
        patch_list: list[Any] = patch.get(field) or []
        merge_key = self.tags(path, field).merge_key
        _check_order(patch_list, order, merge_key)
        if in_original and in_patch:
            merged = self.merge_list(current, patch_list, (*path, field), deleting=False)
        elif in_original:
            merged = _MergedList(current, current)
        elif in_patch:
            merged = _MergedList(_without_directives(patch_list)[0], [])
        else:
            return
        named, others = _partition(merged.items, order, merge_key)
        kind = _element_kind(merged.live_view, patch_list)
        original[field] = _arrange(named, others, order, merged.live_view, merge_key, kind)
        patch.pop(field, None)
