"""The editor's Insert menu (static/js/snippets.json): every snippet loads through the engine."""

import json
from pathlib import Path

import pytest

from playground.scenarios import validate_workload
from scheduler_core.api.manifests import load_manifests

SNIPPETS_FILE = Path(__file__).resolve().parents[2] / "static" / "js" / "snippets.json"
SNIPPETS = json.loads(SNIPPETS_FILE.read_text(encoding="utf-8"))["snippets"]

EXPECTED_KINDS = {
    "deployment": "Deployment",
    "statefulset": "StatefulSet",
    "daemonset": "DaemonSet",
    "pod-node-affinity": "Pod",
    "pod-anti-affinity": "Pod",
    "pdb": "PodDisruptionBudget",
    "hpa": "HorizontalPodAutoscaler",
    "action-cordon": "Action",
}


def test_the_menu_offers_every_snippet_once_with_a_label():
    ids = [snippet["id"] for snippet in SNIPPETS]
    assert sorted(ids) == sorted(EXPECTED_KINDS)
    assert all(snippet["label"].strip() for snippet in SNIPPETS)
    assert len({snippet["label"] for snippet in SNIPPETS}) == len(SNIPPETS)


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda snippet: snippet["id"])
def test_each_snippet_is_one_valid_document_of_its_kind(snippet):
    text = snippet["yaml"]
    assert text.endswith("\n") and not text.startswith("---"), "the editor adds the --- separator itself"
    manifests = load_manifests(text, source="snippet")
    assert [manifest.kind for manifest in manifests] == [EXPECTED_KINDS[snippet["id"]]]
    assert validate_workload(text) == []


def test_pod_snippets_carry_the_affinity_they_are_named_for():
    by_id = {snippet["id"]: load_manifests(snippet["yaml"])[0].object for snippet in SNIPPETS}
    assert by_id["pod-node-affinity"].spec.affinity.node_affinity is not None
    assert by_id["pod-anti-affinity"].spec.affinity.pod_anti_affinity is not None


def test_the_timeline_action_cordons_worker1_at_30_seconds():
    (snippet,) = [snippet for snippet in SNIPPETS if snippet["id"] == "action-cordon"]
    (manifest,) = load_manifests(snippet["yaml"])
    action = manifest.object
    assert (action.at, action.op) == (30.0, "cordon")
    assert (action.target.kind, action.target.name) == ("Node", "worker1")
    assert snippet["yaml"].startswith("apiVersion: playground/v1\nkind: Action\n")


def test_all_snippets_inserted_one_after_another_still_load():
    # What the editor produces when each is inserted in turn: documents joined by "---".
    text = "---\n".join(snippet["yaml"] for snippet in SNIPPETS)
    manifests = load_manifests(text, source="workload")
    assert [manifest.kind for manifest in manifests] == [EXPECTED_KINDS[snippet["id"]] for snippet in SNIPPETS]
    assert validate_workload(text) == []
