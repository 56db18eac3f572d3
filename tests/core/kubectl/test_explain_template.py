"""kubectl's plaintext explain template over a small document: the branches the upstream schemas
served here do not reach (enums, cycles, `additionalProperties: true`, empty descriptions, a GVK
with no schema)."""

import pytest

from scheduler_core.kubectl.explain_template import ExplainError, Gvr, render

GVK = {"group": "example.com", "kind": "Widget", "version": "v1"}
REF = "#/components/schemas/com.example.v1."
DOCUMENT = {
    "paths": {"/apis/example.com/v1/namespaces/{namespace}/widgets": {"get": {"x-kubernetes-group-version-kind": GVK}}},
    "components": {
        "schemas": {
            "com.example.v1.Widget": {
                "description": "A widget.",
                "properties": {
                    "spec": {"allOf": [{"$ref": REF + "Spec"}], "description": "The spec."},
                    "mode": {"type": "string", "enum": ["", "Fast", "Slow", "Medium", "Huge"], "description": "Mode."},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "any": {"type": "object", "additionalProperties": True},
                    "loop": {"$ref": REF + "Node"},
                },
                "required": ["spec"],
                "type": "object",
                "x-kubernetes-group-version-kind": [GVK],
            },
            "com.example.v1.Spec": {"description": "Spec of a widget.", "properties": {"size": {"type": "integer"}}},
            "com.example.v1.Node": {"properties": {"next": {"$ref": REF + "Node"}, "value": {"type": "string"}}},
        }
    },
}
WIDGETS = Gvr("example.com", "v1", "widgets")
HEADER = "GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\n"


def test_recursive_fields_stop_at_a_cycle_and_cut_long_enums() -> None:
    assert render(DOCUMENT, WIDGETS, [], recursive=True) == HEADER + (
        "DESCRIPTION:\n    A widget.\n    \nFIELDS:\n"
        "  any\t<Object>\n"
        "  labels\t<map[string]string>\n"
        "  loop\t<Node>\n    next\t<Node>\n    value\t<string>\n"
        '  mode\t<string>\n  enum: "", Fast, Slow, Medium, ....\n'
        "  spec\t<Spec> -required-\n    size\t<integer>\n"
        "\n"
    )


def test_a_fields_enum_and_empty_descriptions() -> None:
    assert render(DOCUMENT, WIDGETS, ["mode"], recursive=False) == HEADER + (
        'FIELD: mode <string>\nENUM:\n    ""\n    Fast\n    Slow\n    Medium\n    Huge\n\n'
        "DESCRIPTION:\n    Mode.\n    \n\n"
    )
    assert render(DOCUMENT, WIDGETS, ["loop"], recursive=False) == HEADER + (
        "FIELD: loop <Node>\n\n\nDESCRIPTION:\n    <empty>\nFIELDS:\n"
        "  next\t<Node>\n    <no description>\n\n  value\t<string>\n    <no description>\n\n\n"
    )
    assert render(DOCUMENT, WIDGETS, ["loop", "next", "next", "value"], recursive=False).startswith(
        HEADER + "FIELD: value <string>\n"
    )


def test_a_field_through_allof_and_a_map() -> None:
    spec = render(DOCUMENT, WIDGETS, ["spec"], recursive=False)
    assert spec.startswith(HEADER + "FIELD: spec <Spec>\n\n\nDESCRIPTION:\n    The spec.\n    Spec of a widget.\n")
    with pytest.raises(ExplainError, match='field "x" does not exist') as raised:
        render(DOCUMENT, WIDGETS, ["labels", "x"], recursive=False)
    assert raised.value.printed == HEADER


def test_a_resource_without_paths_or_schema() -> None:
    with pytest.raises(ExplainError, match=r"^error: GVR \(example.com/v2, Resource=widgets\) not found"):
        render(DOCUMENT, Gvr("example.com", "v2", "widgets"), [], recursive=False)
    no_schema = {**DOCUMENT, "components": {"schemas": {}}}
    with pytest.raises(ExplainError) as raised:
        render(no_schema, WIDGETS, [], recursive=False)
    assert str(raised.value) == "error: GVK map[group:example.com kind:Widget version:v1] not found in OpenAPI schema"
    assert raised.value.printed == HEADER
