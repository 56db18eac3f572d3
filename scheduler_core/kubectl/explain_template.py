"""`kubectl explain`'s default output: kubectl v1.34's "plaintext" template
(k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl) carried out over an OpenAPI v3 document,
step for step, so that what it prints (and where it stops with an error) is kubectl's: the GVK
taken from the resource's paths, the schema found by its `x-kubernetes-group-version-kind`, the
field path followed through properties, `allOf`, `items` and `additionalProperties`, descriptions
wrapped at 76 (fields at 78 less their indent), tabs between a field and its type.

Go templates' truth applies throughout: nil, false, 0, "" and empty lists and maps are false."""

from dataclasses import dataclass
from typing import Any

from scheduler_core.kubectl.wordwrap import wrap

Schema = dict[str, Any]


class ExplainError(Exception):
    """The template's `throw`: str(error) is kubectl's message; `printed` is what it wrote before."""

    def __init__(self, message: str, printed: str = "") -> None:
        super().__init__(message)
        self.printed = printed


@dataclass(frozen=True, slots=True)
class Gvr:
    group: str
    version: str
    resource: str

    def __str__(self) -> str:  # schema.GroupVersionResource.String()
        return f"{self.group}/{self.version}, Resource={self.resource}"


def render(document: Schema, gvr: Gvr, field_path: list[str], recursive: bool) -> str:
    """The template's text; ExplainError where the template throws."""
    gvk = _gvk(document, gvr)
    if not _truth(gvk):
        raise ExplainError(f"error: GVR ({gvr}) not found in OpenAPI schema")
    header = f"GROUP:      {gvk['group']}\n" if _truth(gvk.get("group")) else ""
    header += f"KIND:       {gvk['kind']}\nVERSION:    {gvk['version']}\n\n"
    body = _Renderer(document, recursive).schema(gvk, field_path, header)
    if not body:
        raise ExplainError(f"error: GVK {_go_map(gvk)} not found in OpenAPI schema", header)
    return header + body + "\n"


def _gvk(document: Schema, gvr: Gvr) -> Any:
    """The GVK of the resource's operations, as the template finds it: the list and object paths,
    cluster-scoped then namespaced, each method in turn. Its `with $gvk = ...` assigns even an
    absent value, so the last path that has an operation decides."""
    prefix = f"/apis/{gvr.group}" if gvr.group else "/api"
    cluster = f"{prefix}/{gvr.version}/{gvr.resource}"
    namespaced = f"{prefix}/{gvr.version}/namespaces/{{namespace}}/{gvr.resource}"
    gvk: Any = ""
    for path in (cluster, f"{cluster}/{{name}}", namespaced, f"{namespaced}/{{name}}"):
        item = (document.get("paths") or {}).get(path)
        if not isinstance(item, dict) or not item:
            continue
        for method in ("get", "post", "put", "patch", "delete"):
            operation = item.get(method)
            if isinstance(operation, dict) and operation:
                gvk = operation.get("x-kubernetes-group-version-kind")
                if _truth(gvk):
                    break
    return gvk


class _Renderer:
    def __init__(self, document: Schema, recursive: bool) -> None:
        self.document = document
        self.recursive = recursive

    def schema(self, gvk: Schema, field_path: list[str], printed: str) -> str:
        """The first component schema (by name) whose GVKs include this one, explained."""
        schemas = self.document.get("components", {}).get("schemas", {})
        for name in sorted(schemas):
            candidate = schemas[name]
            if gvk in (candidate.get("x-kubernetes-group-version-kind") or []):
                text = self.output(candidate, field_path, {})
                if not text:
                    raise ExplainError(f'error: field "{field_path[-1]}" does not exist', printed)
                return text
        return ""

    def output(self, schema: Schema, field_path: list[str], history: dict[str, int]) -> str:
        """The template "output": follows the field path, then prints the field's description and
        fields; "" where the path leads nowhere."""
        ref = schema.get("$ref") or ""
        next_history = {**history, ref: 1}
        resolved = self._resolve(ref) or schema
        if not field_path:
            description = self.description(resolved) or "<empty>"
            text = "DESCRIPTION:\n" + _indent(4, wrap(description, 76)) + "\n"
            fields = self.field_list(resolved, 1, {})
            return text + ("FIELDS:\n" + fields if fields else "")
        if ref and history.get(ref):
            return ""  # a cycle
        properties = resolved.get("properties")
        if isinstance(properties, dict) and _truth(properties.get(field_path[0])):
            subschema = properties[field_path[0]]
            text = ""
            if len(field_path) == 1:
                kind = self.type_guess(subschema)
                enum = _enum(subschema, long_view=True, limit=-1, indent=0)
                text = f"FIELD: {field_path[0]} <{kind}>\n{enum}\n\n"
            return text + self.output(subschema, field_path[1:], {})
        if _truth(resolved.get("items")):
            return self.output(resolved["items"], field_path, next_history)
        if _is_map(resolved):
            return self.output(resolved["additionalProperties"], field_path, next_history)
        for alternative in resolved.get("allOf") or []:
            text = self.output(alternative, field_path, next_history)
            if text:
                return text
        return ""

    def field_list(self, schema: Schema, level: int, history: dict[str, int]) -> str:
        """The template "fieldList": each property (sorted), with its description, or with its own
        fields below it when recursive; then those of `allOf`, `items`, `additionalProperties`."""
        ref = schema.get("$ref") or ""
        if ref and history.get(ref):
            return ""  # a cycle
        next_history = {**history, ref: 1}
        resolved = self._resolve(ref) or schema
        text = ""
        properties = resolved.get("properties") or {}
        for name in sorted(properties):
            text += self.field_detail(name, resolved, level)
            if self.recursive:
                text += self.field_list(properties[name], level + 1, next_history)
        for alternative in resolved.get("allOf") or []:
            text += self.field_list(alternative, level, next_history)
        if _truth(resolved.get("items")):
            text += self.field_list(resolved["items"], level, next_history)
        if _is_map(resolved):
            text += self.field_list(resolved["additionalProperties"], level, next_history)
        return text

    def field_detail(self, name: str, schema: Schema, level: int) -> str:
        indent = level * 2
        field = schema["properties"][name]
        text = _indent(indent, name) + f"\t<{self.type_guess(field)}>"
        if name in (schema.get("required") or []):
            text += " -required-"
        text += _enum(field, long_view=False, limit=4, indent=indent) + "\n"
        if not self.recursive:
            description = field.get("description") or "<no description>"
            text += _indent(indent + 2, wrap(description, 78 - indent)) + "\n\n"
        return text

    def description(self, schema: Schema) -> str:
        """A schema's description, then those of its `allOf`, `items` and `additionalProperties`."""
        resolved = self._resolve(schema.get("$ref")) or schema
        if not _truth(resolved):
            return ""
        text = resolved["description"] + "\n" if _truth(resolved.get("description")) else ""
        for alternative in resolved.get("allOf") or []:
            text += self.description(alternative)
        if _truth(resolved.get("items")):
            text += self.description(resolved["items"])
        if _is_map(resolved):
            text += self.description(resolved["additionalProperties"])
        return text

    def type_guess(self, schema: Any) -> str:
        """`string`, `[]Container`, `map[string]string`, `Object`: the template "typeGuess"."""
        if not _truth(schema):
            raise ExplainError("expected schema argument to subtemplate 'typeguess'")
        if _truth(schema.get("items")):
            return "[]" + self.type_guess(schema["items"])
        if _is_map(schema):
            return "map[string]" + self.type_guess(schema["additionalProperties"])
        all_of = schema.get("allOf")
        if _truth(all_of) and not _truth(schema.get("properties")) and len(all_of) == 1:
            return self.type_guess(all_of[0])
        ref = schema.get("$ref")
        if _truth(ref):
            target = self._resolve(ref)
            if not target or not _truth(target.get("type")) or target.get("type") == "object":
                return ref.split("/")[-1].split(".")[-1] or "Object"
            return str(target["type"])
        kind = schema.get("type")
        return "Object" if kind == "object" or not _truth(kind) else str(kind)

    def _resolve(self, ref: Any) -> Schema | None:
        """resolveRef: a "#/..." fragment followed through the document; None if it leads nowhere."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            return None
        current: Any = self.document
        for part in ref[1:].split("/"):
            if not part:
                continue
            current = current.get(part) if isinstance(current, dict) else None
            if not isinstance(current, dict):
                return None
        return current if isinstance(current, dict) else None


def _enum(schema: Schema, *, long_view: bool, limit: int, indent: int) -> str:
    """The template "extractEnum": `enum: a, b, c, d, ....` under a field, `ENUM:` and a value a
    line in a FIELD's header."""
    values = schema.get("enum")
    if not isinstance(values, list) or not values:
        return ""
    text = "ENUM:" if long_view else "\n" + " " * indent + "enum: "
    for index, value in enumerate(values):
        if limit > -1 and index >= limit:
            text += ", ...."
            break
        if index > 0 and not long_view:
            text += ", "
        elif long_view:
            text += "\n    "
        text += '""' if value == "" else _go_value(value)
    return text


def _is_map(schema: Schema) -> bool:
    """additionalProperties that is a schema (not `true`/`false`) and not empty."""
    extra = schema.get("additionalProperties")
    return not isinstance(extra, bool) and _truth(extra)


def _truth(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, bool | int | float | str | list | dict):
        return bool(value)
    return True


def _indent(amount: int, text: str) -> str:
    pad = " " * amount
    return pad + text.replace("\n", "\n" + pad)


def _go_value(value: Any) -> str:
    """A JSON value as a Go template prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def _go_map(value: Any) -> str:
    """fmt's %v of a map: `map[group:apps kind:Deployment version:v1]`."""
    if isinstance(value, dict):
        return "map[" + " ".join(f"{key}:{_go_map(value[key])}" for key in sorted(value)) + "]"
    return _go_value(value)
