"""`kind: Action` documents: label and taint keys are checked as the API server checks label keys
(apimachinery IsQualifiedName), so an action cannot put a key onto a node that no node may carry."""

import pytest

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests


def action(spec: str) -> str:
    return f"apiVersion: playground/v1\nkind: Action\nspec: {{at: 5s, target: Node/worker1, {spec}}}\n"


@pytest.mark.parametrize(
    ("spec", "path", "says"),
    [
        ('op: label, labels: {"<b>zone</b>": a}', "spec.labels.<b>zone</b>", 'invalid label key "<b>zone</b>"'),
        ('op: label, labels: {zone: "<i>a</i>"}', "spec.labels.zone", 'invalid label value "<i>a</i>"'),
        ('op: label, labels: {"a b": c}', "spec.labels.a b", 'invalid label key "a b"'),
        ('op: unlabel, keys: [zone, "<script>"]', "spec.keys[1]", 'invalid label key "<script>"'),
        ('op: untaint, key: "<x>"', "spec.key", 'invalid taint key "<x>"'),
        ('op: taint, taint: {key: "<x>", effect: NoSchedule}', "spec.taint.key", 'invalid taint key "<x>"'),
    ],
)
def test_an_action_with_a_key_kubernetes_refuses_is_refused_naming_the_field(spec, path, says):
    with pytest.raises(ManifestError) as raised:
        load_manifests(action(spec), source="timeline")
    assert raised.value.path == path
    assert says in raised.value.message
    assert raised.value.line == 3


@pytest.mark.parametrize(
    "spec",
    [
        "op: label, labels: {topology.kubernetes.io/zone: zone-b, disktype: ''}",
        "op: unlabel, keys: [topology.kubernetes.io/zone]",
        "op: untaint, key: dedicated, effect: NoSchedule",
    ],
)
def test_an_action_with_valid_keys_parses(spec):
    (manifest,) = load_manifests(action(spec), source="timeline")
    assert manifest.kind == "Action"
