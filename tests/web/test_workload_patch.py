"""The editor of an imported workload checks and saves what changed, not the whole text
(playground/workload_patch.py): the saved text's digest and one replacement."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from playground import board, importing
from playground.forms import WorkloadEdit, WorkloadEditForm
from playground.models import Scenario, StoredText
from playground.workload_patch import PatchRefused, WorkloadPatch
from tests.web.kubectl_output import nodes_yaml, pods_yaml

HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def imported() -> importing.Imported:
    return importing.import_cluster(nodes_yaml(20), pods_yaml(1500, 20))


@pytest.fixture
def editor(db, imported) -> tuple[Client, Scenario]:
    client = Client()
    assert client.post(reverse("new-scenario")).status_code == 302
    scenario = Scenario.objects.get()
    board.replace_cluster(scenario, scenario.version, imported.nodes, imported.workload_yaml)
    return client, Scenario.objects.get()


def patch_of(saved: str, old: str, new: str, base: str | None = None) -> dict[str, str]:
    """The fields static/js/text-patch.js sends for replacing the first `old` in `saved` by `new`."""
    start = saved.index(old)
    return {
        "workload_base": base or StoredText.digest_of(saved),
        "workload_from": str(start),
        "workload_to": str(start + len(old)),
        "workload_insert": new,
    }


def test_a_patch_applies_to_the_text_it_was_made_against_only():
    saved = "a: 1\nb: 2\n"
    patch = WorkloadPatch(StoredText.digest_of(saved), 5, 9, "b: 3")
    assert patch.apply(saved, StoredText.digest_of(saved)) == "a: 1\nb: 3\n"
    with pytest.raises(PatchRefused, match="not the saved one"):
        patch.apply("a: 1\nb: 4\n", StoredText.digest_of("a: 1\nb: 4\n"))
    with pytest.raises(PatchRefused, match="outside"):
        WorkloadPatch(patch.base, 9, 5, "").apply(saved, patch.base)
    with pytest.raises(PatchRefused, match="outside"):
        WorkloadPatch(patch.base, 5, 11, "").apply(saved, patch.base)
    crlf = "a: 1\r\nb: 2\r\n"  # the editor counts in the text with LF line breaks
    with pytest.raises(PatchRefused, match="CR"):
        WorkloadPatch(StoredText.digest_of(crlf), 0, 0, "").apply(crlf, StoredText.digest_of(crlf))
    accented = "a: é\nb: 2\n"  # offsets in UTF-16 and in characters part ways past such text
    with pytest.raises(PatchRefused, match="ASCII"):
        WorkloadPatch(StoredText.digest_of(accented), 0, 0, "").apply(accented, StoredText.digest_of(accented))


def test_a_request_without_a_patch_has_none_and_bad_offsets_are_refused():
    factory = RequestFactory()
    assert WorkloadEditForm.of(factory.post("/", {"workload": "a\r\nb"})) == WorkloadEdit("a\nb", None)
    assert WorkloadEditForm.of(factory.post("/", {})) == WorkloadEdit(None, None)  # not sent: not empty
    with pytest.raises(PatchRefused, match="numbers"):
        WorkloadEditForm.of(factory.post("/", {"workload_base": "x", "workload_from": "1", "workload_to": "two"}))
    with pytest.raises(PatchRefused, match="numbers"):
        WorkloadEditForm.of(factory.post("/", {"workload_base": "x", "workload_from": "1"}))
    sent = {"workload_base": "x", "workload_from": "1", "workload_to": "2", "workload_insert": "a\r\nb"}
    edit = WorkloadEditForm.of(factory.post("/", sent))
    assert edit == WorkloadEdit(None, WorkloadPatch("x", 1, 2, "a\nb"))  # line breaks as the saved text has them
    # The live check names its text "yaml"; a NUL is kept for the parser to name its line.
    assert WorkloadEditForm.of(factory.post("/", {"yaml": "a: \x00"}), text_field="yaml").text == "a: \x00"


def test_a_patch_is_checked_as_the_whole_edited_text_would_be(editor, imported):
    client, scenario = editor
    url = reverse("validate") + f"?scenario={scenario.slug}"
    first = imported.workload_yaml.split("\n", 1)[0]
    good = patch_of(imported.workload_yaml, "labels: {", "labels: {reviewed: 'yes', ")
    assert client.post(url, good).json() == {"ok": True, "problems": []}
    broken = patch_of(imported.workload_yaml, first, first.replace("kind: Pod", "kind: Pod, spec: 3"))
    answer = client.post(url, broken).json()
    assert answer["ok"] is False and answer["problems"][0]["line"] == 1
    whole = client.post(
        url, {"yaml": imported.workload_yaml.replace(first, first.replace("kind: Pod", "kind: Pod, spec: 3"))}
    )
    assert answer["problems"] == whole.json()["problems"]  # the same answer as for the whole text


def test_a_patch_against_another_text_asks_for_the_whole_text(editor, imported):
    client, scenario = editor
    url = reverse("validate") + f"?scenario={scenario.slug}"
    stale = patch_of(imported.workload_yaml, "labels: {", "labels: {x: 'y', ", base="0" * 64)
    answer = client.post(url, stale)
    assert answer.status_code == 409 and answer.json()["resend"] is True
    assert client.post(reverse("validate"), stale).status_code == 409  # no scenario named


def test_a_saved_patch_saves_the_edited_text(editor, imported):
    client, scenario = editor
    url = reverse("save-workload", args=[scenario.slug])
    fields = patch_of(imported.workload_yaml, "labels: {", "labels: {reviewed: 'yes', ")
    answer = client.post(url, {"version": scenario.version, **fields}, headers=HTMX)
    assert answer.status_code == 200
    saved = Scenario.objects.get(pk=scenario.pk)
    assert saved.version == scenario.version + 1
    assert saved.workload_yaml == imported.workload_yaml.replace("labels: {", "labels: {reviewed: 'yes', ", 1)


def test_a_saved_patch_against_an_older_text_is_refused_as_a_stale_edit(editor, imported):
    client, scenario = editor
    url = reverse("save-workload", args=[scenario.slug])
    fields = patch_of(imported.workload_yaml, "labels: {", "labels: {a: 'b', ")
    assert client.post(url, {"version": scenario.version, **fields}, headers=HTMX).status_code == 200
    again = patch_of(imported.workload_yaml, "labels: {", "labels: {c: 'd', ")  # against the text before
    refused = client.post(url, {"version": scenario.version + 1, **again}, headers=HTMX)
    assert refused.status_code == 409
    assert "labels: {c: 'd'" not in Scenario.objects.get(pk=scenario.pk).workload_yaml
