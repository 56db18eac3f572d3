"""kubectl explain TYPE[.FIELD...] [--recursive] [--api-version=GROUP/VERSION] [-o plaintext]: what
kubectl v1.34 prints, read from the OpenAPI v3 documents this API serves (scheduler_core/kubeapi/
openapi.py) as kubectl reads them from /openapi/v3, printed by kubectl's plaintext template
(explain_template.py), with kubectl's errors.

The type is resolved as kubectl's RESTMapper resolves it; the field path is read as kubectl's
jsonpath reads it (`deployments.apps.spec` names the group, `pods.spec.containers[0]` is refused)."""

from dataclasses import dataclass

from scheduler_core.kubeapi import openapi
from scheduler_core.kubectl.explain_template import ExplainError, Gvr, render
from scheduler_core.kubectl.flags import Flag, UsageError, parse
from scheduler_core.kubectl.names import NameError_, resolve

FLAGS = (Flag("recursive", takes_value=False), Flag("api-version"), Flag("output", "o"))
PLAINTEXT, PLAINTEXT_V2 = "plaintext", "plaintext-openapiv2"
# strconv.ParseBool's spellings, which pflag accepts for a boolean flag.
_TRUE, _FALSE = ("1", "t", "T", "TRUE", "true", "True"), ("0", "f", "F", "FALSE", "false", "False")


@dataclass(frozen=True, slots=True)
class Explained:
    stdout: str = ""
    stderr: str = ""


class _Refusal(Exception):
    """An error kubectl prints as it is (str(error), without a newline)."""


def explain(words: list[str]) -> Explained:
    """`words`: the command line after "explain". Flag errors raise UsageError (the console adds
    cobra's "See 'kubectl explain --help' for usage.")."""
    parsed = parse(words, FLAGS)
    recursive = _boolean(parsed.values.get("recursive", "false"), "recursive")
    api_version = parsed.value("api-version")
    output = parsed.values.get("output", PLAINTEXT)
    try:
        if not parsed.args:
            raise _Refusal(
                "error: You must specify the type of resource to explain. "
                'Use "kubectl api-resources" for a complete list of supported resources.'
            )
        if len(parsed.args) > 1:
            raise _Refusal("error: We accept only this format: explain RESOURCE")
        gvr, field_path = _resource_and_fields(parsed.args[0], by_prefix=not api_version)
        if output == PLAINTEXT_V2:
            # kubectl reads /openapi/v2 for this one, which this API does not serve.
            raise _Refusal("Error from server (NotFound): the server could not find the requested resource")
        if api_version:
            group, version = _group_version(api_version)
            gvr = Gvr(group, version, gvr.resource)
        document = openapi.group_version_document(
            f"apis/{gvr.group}/{gvr.version}" if gvr.group else f"api/{gvr.version}"
        )
        if document is None:
            raise _Refusal(f'error: couldn\'t find resource for "{gvr}"')
        if output != PLAINTEXT:
            raise _Refusal(f"error: unrecognized format: {output}")
        return Explained(stdout=render(document, gvr, field_path, recursive))
    except _Refusal as refusal:
        return Explained(stderr=f"{refusal}\n")
    except ExplainError as error:
        return Explained(stdout=error.printed, stderr=f"{error}\n")


def _boolean(value: str, flag: str) -> bool:
    if value in _TRUE or value in _FALSE:
        return value in _TRUE
    raise UsageError(
        f'error: invalid argument "{value}" for "--{flag}" flag: strconv.ParseBool: parsing "{value}": invalid syntax'
    )


def _group_version(text: str) -> tuple[str, str]:
    """schema.ParseGroupVersion: "v1", "apps/v1"."""
    if text.count("/") > 1:
        raise _Refusal(f"error: unexpected GroupVersion string: {text}")
    group, _, version = text.rpartition("/")
    return group, version


def _resource_and_fields(text: str, *, by_prefix: bool) -> tuple[Gvr, list[str]]:
    """explain.SplitAndParseResourceRequestWithMatchingPrefix (`by_prefix`, no --api-version) or
    SplitAndParseResourceRequest: the first jsonpath field names the type; with its group spelled
    out after the plural ("deployments.apps.spec") the group is not a field."""
    nodes = _jsonpath(text)
    if nodes[0] is None:
        raise _Refusal("error: invalid jsonpath syntax, first node must be field node")
    try:
        resource = resolve(nodes[0])
    except NameError_:  # kubectl matches any case but names the type as typed, without "error: "
        raise _Refusal(f'the server doesn\'t have a resource type "{nodes[0]}"') from None
    gvr = Gvr(resource.group, resource.version, resource.plural)
    rest = nodes[1:]
    qualified = f"{resource.plural}.{resource.group}" if resource.group else resource.plural
    if by_prefix and text.startswith(qualified):
        suffix = text[len(qualified) :]
        rest = _jsonpath(suffix)[1:] if suffix else []
    if any(node is None for node in rest):
        raise _Refusal("error: invalid jsonpath syntax, first node must be field node")
    return gvr, [node for node in rest if node is not None]


def _jsonpath(text: str) -> list[str | None]:
    """The nodes of kubectl's jsonpath "{.TEXT}" (a trailing "." dropped): a field's name, or None
    for any other node (an index, a slice, `*`, a recursive `..`)."""
    text = "." + text.removesuffix(".")
    nodes: list[str | None] = []
    position = 0
    while position < len(text):
        if text.startswith("..", position):
            nodes.append(None)
            position += 2
            if position < len(text) and text[position] not in ".[":
                position = _field(text, position, nodes)
        elif text[position] == ".":
            position = _field(text, position + 1, nodes)
        elif text[position] == "[":
            end = text.find("]", position)
            if end < 0:
                raise _Refusal(f"error: unterminated array at {text[position:]}")
            inside = text[position + 1 : end]
            if len(inside) > 1 and inside[0] == inside[-1] == "'":
                nodes.append(inside[1:-1])
            elif inside == "*" or all(part.strip().lstrip("-").isdigit() or not part for part in inside.split(":")):
                nodes.append(None)
            else:
                raise _Refusal(f"error: invalid array index {inside}")
            position = end + 1
        else:
            position = _field(text, position, nodes)
    return nodes


def _field(text: str, start: int, nodes: list[str | None]) -> int:
    end = start
    while end < len(text) and text[end] not in ".[]":
        end += 1
    name = text[start:end]
    nodes.append(None if name == "*" else name)
    return end
