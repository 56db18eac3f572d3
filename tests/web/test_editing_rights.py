"""Edit rights without limits, the palette, saves that lose nothing (issue #12, items 1-4, the
server's side; tests/browser/test_editing_safety.py drives the page)."""

import time

import pytest
from django.core import signing
from django.urls import reverse

from playground.models import Scenario
from playground.scenarios import create_scenario
from playground.sessions import LEGACY_SALT
from playground.views.common import MAX_EDIT_RIGHTS

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n"
VALID = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: nginx\n"


def new_scenario(client) -> Scenario:
    response = client.post(reverse("new-scenario"))
    assert response.status_code == 302
    return Scenario.objects.get(slug=response["Location"].rstrip("/").split("/s/")[1])


def can_edit(client, scenario: Scenario) -> bool:
    return b'id="palette"' in client.get(reverse("scenario", args=[scenario.slug])).content


# ---------------------------------------------------------------------------- sessions


def test_a_browser_keeps_edit_rights_to_hundreds_of_scenarios(client, settings):
    settings.RATE_LIMITS_ENABLED = False
    made = [new_scenario(client) for _ in range(150)]
    assert len(client.cookies["sessionid"].value) < 64  # the session key, not the secrets
    assert can_edit(client, made[0]) and can_edit(client, made[-1])
    page = client.get(reverse("my-scenarios"))
    assert page.content.count(b"<tr data-slug=") == 150
    assert page.content.index(made[-1].slug.encode()) < page.content.index(made[0].slug.encode())


def test_the_oldest_rights_go_past_the_bound_and_the_edit_link_brings_them_back(client, settings, monkeypatch):
    settings.RATE_LIMITS_ENABLED = False
    monkeypatch.setattr("playground.views.common.MAX_EDIT_RIGHTS", 3)
    made = [new_scenario(client) for _ in range(4)]
    assert not can_edit(client, made[0])
    assert all(can_edit(client, scenario) for scenario in made[1:])
    assert MAX_EDIT_RIGHTS >= 1000


def test_an_old_signed_cookie_session_becomes_a_database_session_with_its_rights(client):
    scenario, secret = create_scenario("Old rights")
    legacy = signing.dumps(
        {f"edit:{scenario.slug}": secret}, salt=LEGACY_SALT, serializer=signing.JSONSerializer, compress=True
    )
    client.cookies["sessionid"] = legacy
    assert can_edit(client, scenario)
    key = client.cookies["sessionid"].value
    assert key != legacy and ":" not in key
    assert can_edit(client, scenario)  # again, from the database session


def test_a_forged_signed_cookie_grants_nothing(client):
    scenario, secret = create_scenario("Forged")
    forged = signing.dumps({f"edit:{scenario.slug}": secret}, key="not-the-secret-key", salt=LEGACY_SALT)
    client.cookies["sessionid"] = forged
    assert not can_edit(client, scenario)


def test_a_creator_is_told_once_to_keep_the_edit_link(client):
    scenario = new_scenario(client)
    first = client.get(reverse("scenario", args=[scenario.slug])).content
    assert b'data-testid="keep-edit-link"' in first
    again = client.get(reverse("scenario", args=[scenario.slug])).content
    assert b'data-testid="keep-edit-link"' not in again


def test_a_viewer_sees_a_read_only_notice_with_fork(client):
    scenario, _ = create_scenario("Someone else's")
    page = client.get(reverse("scenario", args=[scenario.slug])).content
    assert b'data-testid="read-only"' in page and b"Fork to edit" in page
    assert b'id="palette"' not in page


# ---------------------------------------------------------------------------- the palette


def test_palette_chips_are_kept_with_the_scenario_and_bounded(client):
    scenario = new_scenario(client)
    url = reverse("edit-palette", args=[scenario.slug])
    response = client.post(
        url, {"op": "add", "kind": "taint", "key": "gpu", "value": "a100", "effect": "NoExecute"}, headers=HTMX
    )
    assert response.status_code == 200 and b"gpu=a100:NoExecute" in response.content
    scenario.refresh_from_db()
    assert scenario.palette == [{"kind": "taint", "key": "gpu", "value": "a100", "effect": "NoExecute"}]
    assert scenario.version == 1  # a palette changes no cluster
    assert b"gpu=a100:NoExecute" in client.get(reverse("scenario", args=[scenario.slug])).content
    client.post(
        url, {"op": "remove", "kind": "taint", "key": "gpu", "value": "a100", "effect": "NoExecute"}, headers=HTMX
    )
    scenario.refresh_from_db()
    assert scenario.palette == []
    for index in range(40):
        assert client.post(url, {"op": "add", "kind": "label", "key": f"k{index}"}, headers=HTMX).status_code == 200
    refused = client.post(url, {"op": "add", "kind": "label", "key": "one-more"}, headers=HTMX)
    assert refused.status_code == 422 and b"at most 40" in refused.content


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"kind": "label", "key": "<script>x</script>"}, b"invalid label key"),
        ({"kind": "label", "key": "team", "value": "a b"}, b"invalid label value"),
        ({"kind": "taint", "key": "gpu", "effect": "Sometimes"}, b"taint effect must be one of"),
        ({"kind": "annotation", "key": "x"}, b"a label or a taint"),
    ],
)
def test_palette_chips_are_checked_as_kubernetes_checks_labels_and_taints(client, data, expected):
    scenario = new_scenario(client)
    response = client.post(reverse("edit-palette", args=[scenario.slug]), {"op": "add", **data}, headers=HTMX)
    assert response.status_code == 422 and expected in response.content
    assert b"&lt;script&gt;" in response.content or b"<script>x" not in response.content
    scenario.refresh_from_db()
    assert scenario.palette == []


def test_a_viewer_cannot_change_the_palette(client):
    scenario, _ = create_scenario("Not mine")
    response = client.post(
        reverse("edit-palette", args=[scenario.slug]), {"op": "add", "kind": "label", "key": "x"}, headers=HTMX
    )
    assert response.status_code == 403
    scenario.refresh_from_db()
    assert scenario.palette == []


# ---------------------------------------------------------------------------- saving text


def test_a_save_on_an_old_base_is_refused_with_the_current_text(client):
    scenario = new_scenario(client)
    url = reverse("save-workload", args=[scenario.slug])
    assert client.post(url, {"version": 1, "workload": VALID}, headers=HTMX).status_code == 200
    stale = client.post(url, {"version": 1, "workload": VALID.replace("nginx", "redis")}, headers=HTMX)
    assert stale.status_code == 409
    assert b'<template id="workload-source" data-version="2">' in stale.content
    assert b"image: nginx" in stale.content  # the current text, for the editor to merge with
    scenario.refresh_from_db()
    assert "redis" not in scenario.workload_yaml


def test_a_plain_form_post_refused_as_stale_shows_the_persons_text(client):
    scenario = new_scenario(client)
    url = reverse("save-workload", args=[scenario.slug])
    client.post(url, {"version": 1, "workload": VALID})
    mine = VALID.replace("name: p", "name: my-precious-pod")
    page = client.post(url, {"version": 1, "workload": mine})
    assert page.status_code == 409
    assert b'data-testid="unsaved-workload"' in page.content and b"my-precious-pod" in page.content
    invalid = client.post(url, {"version": 2, "workload": "my precious text: 1\n"})
    assert invalid.status_code == 422 and b"my precious text: 1" in invalid.content


def test_line_breaks_from_a_form_are_kept_as_the_editor_has_them(client):
    scenario = new_scenario(client)
    client.post(reverse("save-workload", args=[scenario.slug]), {"version": 1, "workload": VALID.replace("\n", "\r\n")})
    scenario.refresh_from_db()
    assert scenario.workload_yaml == VALID


def test_a_fork_can_hold_the_editors_own_text(client):
    scenario = new_scenario(client)
    response = client.post(reverse("fork-scenario", args=[scenario.slug]), {"workload": VALID})
    assert response.status_code == 302
    forked = Scenario.objects.get(slug=response["Location"].rstrip("/").split("/s/")[1])
    assert forked.workload_yaml == VALID and forked.forked_from is not None
    assert forked.versions.get().workload_yaml == VALID
    refused = client.post(reverse("fork-scenario", args=[scenario.slug]), {"workload": "<<<<<<< yours\n"})
    assert refused.status_code == 422 and b"Not forked" in refused.content


def test_renaming_changes_the_title_on_the_page(client):
    scenario = new_scenario(client)
    response = client.post(
        reverse("save-details", args=[scenario.slug]),
        {"version": 1, "title": "Payments", "description": "three workers"},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert b'id="scenario-title"' in response.content and b'hx-swap-oob="true"' in response.content
    assert b"Payments" in response.content


def test_palette_changes_are_rate_limited_per_client(client):
    scenario = new_scenario(client)
    url = reverse("edit-palette", args=[scenario.slug])
    started = time.monotonic()
    answers = []
    while 429 not in answers and len(answers) < 200:
        answers.append(client.post(url, {"op": "remove", "kind": "label", "key": "x"}, headers=HTMX).status_code)
    refilled = (time.monotonic() - started) * 60 / 60  # 60 a minute come back while the burst is spent
    assert answers[:60] == [200] * 60 and answers[-1] == 429
    assert len(answers) - 1 <= 60 + refilled + 1


def test_every_board_an_htmx_request_gets_carries_the_title(client):
    """A rename's answer may be dropped when a live refresh replaced the board first; the refresh's
    own board then brings the new title, as any board does to another tab."""
    scenario = new_scenario(client)
    client.post(reverse("save-details", args=[scenario.slug]), {"version": 1, "title": "Payments"}, headers=HTMX)
    board = client.get(reverse("board", args=[scenario.slug]), headers=HTMX)
    assert b'id="scenario-title" class="scenario-title-block" hx-swap-oob="true"' in board.content
    assert b"Payments" in board.content
    page = client.get(reverse("scenario", args=[scenario.slug]))
    assert b'hx-swap-oob="true"' not in page.content  # the page itself holds the title in place
