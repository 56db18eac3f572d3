"""An imported cluster's workload (megabytes) does not travel in every page and board: the editor
fetches it from /s/<slug>/workload.yaml (views.editing.workload_text); a workload a person types
stays inside the page, as before."""

import gzip

import pytest
from django.urls import reverse

from playground import importing
from playground.models import Scenario, StoredText
from playground.scenarios import MAX_WORKLOAD_BYTES, create_scenario
from tests.web.kubectl_output import nodes_yaml, pods_yaml

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def imported() -> importing.Imported:
    return importing.import_cluster(nodes_yaml(20), pods_yaml(1500, 20))


@pytest.fixture
def big(client, imported) -> Scenario:
    assert len(imported.workload_yaml) > MAX_WORKLOAD_BYTES
    scenario, secret = create_scenario("Imported", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    client.get(reverse("claim-edit-link", args=[scenario.slug, secret]))
    return scenario


def test_the_page_and_the_board_leave_a_big_workload_out(client, big, imported):
    first_pod = imported.workload_yaml.splitlines()[0]
    page = client.get(reverse("scenario", args=[big.slug]), headers={"Accept-Encoding": "gzip"})
    html = gzip.decompress(page.content).decode()
    assert first_pod not in html and len(html) < len(imported.workload_yaml) / 3
    url = reverse("workload-text", args=[big.slug])
    digest = StoredText.digest_of(imported.workload_yaml)
    source = f'<template id="workload-source" data-version="{big.version}" data-digest="{digest}" data-url="{url}">'
    assert source + "</template>" in html
    assert f'disabled data-load-url="{url}"></textarea>' in html  # nothing to send until it is loaded
    assert "This imported workload is " in html and f'href="{url}"' in html  # and without JavaScript
    node = big.nodes.first()
    cordon = reverse("node-action", args=[big.slug, node.pk, "cordon"])
    answer = client.post(cordon, {"version": big.version}, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and first_pod not in answer.content.decode()
    assert f'data-version="2" data-digest="{digest}" data-url=' in answer.content.decode()  # the same workload


def test_the_workload_comes_on_its_own_with_its_version(client, big, imported):
    answer = client.get(reverse("workload-text", args=[big.slug]))
    assert answer.status_code == 200 and answer["Content-Type"] == "text/plain; charset=utf-8"
    assert answer.content.decode() == imported.workload_yaml
    assert answer["X-Workload-Version"] == str(big.version)
    assert "no-cache" in answer["Cache-Control"] or "max-age=0" in answer["Cache-Control"]
    assert client.get(reverse("workload-text", args=["nope"])).status_code == 404


def test_a_save_without_the_text_changes_nothing(client, big, imported):
    """The editor's textarea is disabled until the text is loaded: a save then sends no field."""
    url = reverse("save-workload", args=[big.slug])
    answer = client.post(url, {"version": big.version}, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    assert "No workload text was sent" in answer.content.decode()
    big.refresh_from_db()
    assert big.workload_yaml == imported.workload_yaml and big.version == 1


def test_a_typed_workload_still_travels_in_the_page(client):
    scenario, _secret = create_scenario("Typed", workload_yaml="apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    html = client.get(reverse("scenario", args=[scenario.slug])).content.decode()
    assert '<template id="workload-source" data-version="1">apiVersion: v1' in html
    assert "data-load-url" not in html and "This imported workload" not in html


def test_an_edit_of_a_big_workload_is_checked_where_it_changed(client, big, imported):
    lines = imported.workload_yaml.splitlines(keepends=True)
    url = reverse("save-workload", args=[big.slug])
    broken = list(lines)
    broken[700] = broken[700].replace("cpu: 250m", "cpu: lots", 1)
    assert broken[700] != lines[700]
    answer = client.post(url, {"version": big.version, "workload": "".join(broken)}, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    assert "line 701: Pod " in answer.content.decode() and "cpu" in answer.content.decode()
    check = client.post(reverse("validate") + f"?scenario={big.slug}", {"yaml": "".join(broken)})
    [problem] = check.json()["problems"]
    assert problem["line"] == 701 and problem["path"].endswith("requests.cpu")
    fixed = list(lines)
    fixed[700] = fixed[700].replace("cpu: 250m", "cpu: 300m", 1)
    answer = client.post(url, {"version": big.version, "workload": "".join(fixed)}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    big.refresh_from_db()
    assert big.version == 2 and "cpu: 300m" in big.workload_yaml.splitlines()[700]


def test_the_editors_check_of_a_browsers_crlf_text_parses_only_what_changed(client, big, imported, monkeypatch):
    """Browsers send a form's line breaks as CRLF: compared as sent, every line would differ."""
    from playground import workload_changes

    parsed: list[int] = []
    whole = workload_changes.validate_workload
    monkeypatch.setattr(
        workload_changes, "validate_workload", lambda text, limit: parsed.append(len(text)) or whole(text, limit)
    )
    edited = imported.workload_yaml + "# reviewed\n"
    check = client.post(reverse("validate") + f"?scenario={big.slug}", {"yaml": edited.replace("\n", "\r\n")})
    assert check.json() == {"ok": True, "problems": []}
    assert parsed and max(parsed) < 2_000  # the last pod's line and the comment, not 700 KB


def test_an_imported_workload_can_be_saved_as_a_fork(client, big, imported):
    """The editor's "save mine as a fork" when its edit overlaps another's: the import's bound holds."""
    edited = imported.workload_yaml.replace("cpu: 250m", "cpu: 275m", 1)
    answer = client.post(reverse("fork-scenario", args=[big.slug]), {"workload": edited.replace("\n", "\r\n")})
    assert answer.status_code == 302, answer.content[:300]
    forked = Scenario.objects.exclude(pk=big.pk).get()
    assert forked.workload_yaml == edited


def test_downloads_of_a_big_workload_are_rate_limited(client, big, settings):
    from playground.ratelimit import Limit

    settings.RATE_LIMITS = {"download": Limit(burst=2, per_minute=1, what="workload downloads")}
    url = reverse("workload-text", args=[big.slug])
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 429]
