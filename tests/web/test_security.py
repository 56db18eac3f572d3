"""Content Security Policy headers, pages that need no inline script or style, and the rate limits."""

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from playground import ratelimit
from playground.models import Run, Scenario
from playground.ratelimit import Limit
from playground.scenarios import create_scenario, snapshot

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx}]\n"


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in policy.split(";"))}


# ---------------------------------------------------------------------------- CSP


@pytest.fixture
def pages(client):
    """Every kind of page: home, the scenario (cards and table), a version, the embed, a run."""
    client.post(reverse("new-scenario"))
    scenario = Scenario.objects.get()
    scenario.workload_yaml = POD
    scenario.save()
    version = snapshot(scenario)
    client.post(reverse("start-run", args=[scenario.slug]), headers=HTMX)
    run = Run.objects.get()
    return {
        "home": reverse("index"),
        "scenario": reverse("scenario", args=[scenario.slug]),
        "table": reverse("scenario", args=[scenario.slug]) + "?view=table",
        "board": reverse("board", args=[scenario.slug]),
        "run": reverse("scenario", args=[scenario.slug]) + f"?run={run.pk}",
        "explain": reverse("explain-pod", args=[scenario.slug, run.pk]) + "?pod=default/web&seq=1",
        "version": reverse("version", args=[version.permalink]),
        "embed": reverse("embed", args=[version.permalink]),
    }


def test_every_page_carries_a_policy_without_inline_script(client, pages):
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        policy = directives(response)
        assert policy["script-src"] == ["'self'"], name
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"], name
        assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in policy["script-src"], name
        assert policy["connect-src"] == ["'self'", "ws://testserver", "wss://testserver"], name
        assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"], name


def test_the_style_nonce_is_the_one_the_page_hands_the_editor(client, pages):
    response = client.get(pages["scenario"])
    nonce = re.search(r'<meta name="csp-nonce" content="([^"]+)">', response.content.decode()).group(1)
    assert directives(response)["style-src"] == ["'self'", f"'nonce-{nonce}'"]
    assert nonce not in client.get(pages["scenario"])["Content-Security-Policy"]  # one per response


def test_pages_have_no_inline_script_handlers_or_style_attributes(client, pages):
    for name, url in pages.items():
        html = client.get(url).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), name  # every script is a file
        assert not re.search(r"\son[a-z]+\s*=", html), name  # no onclick= and the like
        assert not re.search(r"\sstyle\s*=", html), name  # bars: SVG geometry, or a width class
        assert "javascript:" not in html, name


def test_the_resource_bars_are_drawn_by_svg_geometry(client, pages):
    html = client.get(pages["scenario"]).content.decode()
    widths = re.findall(r'<rect class="fill(?: hot)?" width="(\d+)" height="1"/>', html)
    assert len(widths) == 9  # three workers, three bars each
    assert all(0 <= int(width) <= 100 for width in widths)
    assert len(re.findall(r'<rect class="fill', client.get(pages["table"]).content.decode())) == 9


def test_only_the_embed_view_may_be_framed(client, pages):
    for name, url in pages.items():
        response = client.get(url)
        if name == "embed":
            assert directives(response)["frame-ancestors"] == ["*"]
            assert "X-Frame-Options" not in response
        else:
            assert directives(response)["frame-ancestors"] == ["'none'"], name
            assert response["X-Frame-Options"] == "DENY", name


def test_an_ipv6_literal_host_relies_on_self_for_the_websocket(client):
    with override_settings(ALLOWED_HOSTS=["[::1]"]):
        response = client.get(reverse("index"), headers={"host": "[::1]:8000"})
    assert directives(response)["connect-src"] == ["'self'"]  # a CSP host-source cannot name [::1]


# ---------------------------------------------------------------------------- rate limits

TIGHT = {
    "create": Limit(burst=2, per_minute=6, what="new scenarios"),
    "run": Limit(burst=2, per_minute=6, what="runs"),
    "validate": Limit(burst=3, per_minute=60, what="validations"),
    "inspect": Limit(burst=2, per_minute=120, what="explanations and traffic views"),
}


@pytest.fixture
def tight(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(ratelimit, "clock", lambda: now[0])
    with override_settings(RATE_LIMITS=TIGHT):
        yield now


@pytest.fixture
def gallery():
    scenario, _ = create_scenario("gallery entry", workload_yaml=POD)
    scenario.gallery_key = "example"
    scenario.save()
    return scenario


def _assert_refused(response, what: str, retry_after: int) -> None:
    assert response.status_code == 429
    assert response["Retry-After"] == str(retry_after)
    text = response.content.decode()
    assert f"Too many {what} from your address" in text and f"Try again in {retry_after} s." in text


@pytest.mark.parametrize(
    "endpoint",
    ["new", "gallery", "fork-scenario", "fork-version"],
)
def test_scenario_creation_is_limited_per_client(client, tight, gallery, endpoint):
    url = {
        "new": reverse("new-scenario"),
        "gallery": reverse("use-gallery", args=["example"]),
        "fork-scenario": reverse("fork-scenario", args=[gallery.slug]),
        "fork-version": reverse("fork-version", args=[snapshot(gallery).permalink]),
    }[endpoint]
    before = Scenario.objects.count()
    assert client.post(url).status_code == 302
    assert client.post(url).status_code == 302
    refused = client.post(url)
    _assert_refused(refused, "new scenarios", 10)  # 6 a minute: a token every 10 s
    assert "<h1>Slow down a little</h1>" in refused.content.decode()  # a page of its own for a form post
    assert Scenario.objects.count() == before + 2  # the refused request created nothing
    assert Client(REMOTE_ADDR="10.0.0.2").post(url).status_code == 302  # another client, another bucket
    tight[0] += 10  # one token back
    assert client.post(url).status_code == 302
    assert client.post(url).status_code == 429


def test_every_way_of_creating_shares_one_bucket(client, tight, gallery):
    assert client.post(reverse("new-scenario")).status_code == 302
    assert client.post(reverse("use-gallery", args=["example"])).status_code == 302
    assert client.post(reverse("fork-scenario", args=[gallery.slug])).status_code == 429


def test_runs_are_limited_and_htmx_gets_a_fragment_for_the_notice(client, tight):
    scenario, _ = create_scenario("runs", workload_yaml=POD)
    url = reverse("start-run", args=[scenario.slug])
    assert client.post(url, headers=HTMX).status_code == 201
    assert client.post(url, headers=HTMX).status_code == 201
    refused = client.post(url, headers=HTMX)
    _assert_refused(refused, "runs", 10)
    assert refused["HX-Retarget"] == "#notice" and refused["HX-Reswap"] == "innerHTML"
    html = refused.content.decode()
    assert html.startswith('<p class="flash error" role="alert"') and "<html" not in html  # just the fragment
    assert Run.objects.count() == 2
    page = client.get(reverse("scenario", args=[scenario.slug])).content.decode()
    assert '<div id="notice"' in page  # where the fragment goes


def test_acting_takes_from_the_runs_bucket(client, tight):
    client.post(reverse("new-scenario"))
    scenario = Scenario.objects.get()
    first = client.post(reverse("start-run", args=[scenario.slug]), headers=HTMX)
    assert first.status_code == 201
    data = {"version": scenario.version, "run": Run.objects.get().pk, "at": "5", "op": "cordon",
            "target": "Node/worker1"}  # fmt: skip
    assert client.post(reverse("act", args=[scenario.slug]), data, headers=HTMX).status_code == 201
    scenario.refresh_from_db()
    refused = client.post(reverse("act", args=[scenario.slug]), data | {"version": scenario.version}, headers=HTMX)
    _assert_refused(refused, "runs", 10)
    scenario.refresh_from_db()
    assert scenario.workload_yaml.count("op: cordon") == 1  # the refused act changed nothing


def test_validation_is_limited_and_answers_json(client, tight):
    url = reverse("validate")
    for _ in range(3):
        assert client.post(url, {"yaml": POD}).json()["ok"] is True
    refused = client.post(url, {"yaml": POD})
    assert refused.status_code == 429
    assert refused["Retry-After"] == "1"
    body = refused.json()
    assert body["ok"] is False and body["problems"] == []
    assert body["error"].startswith("Too many validations from your address (at most 3 at once, then 60 a minute)")
    tight[0] += 1
    assert client.post(url, {"yaml": POD}).status_code == 200


def test_limits_can_be_switched_off(client, tight):
    with override_settings(RATE_LIMITS_ENABLED=False):
        for _ in range(5):
            assert client.post(reverse("validate"), {"yaml": POD}).status_code == 200


def test_a_get_takes_no_token(client, tight):
    for _ in range(5):
        assert client.get(reverse("new-scenario")).status_code == 405
    assert client.post(reverse("new-scenario")).status_code == 302


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),  # the same /64: the same client
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("", "unknown"),
        ("not an address", "not an address"),
    ],
)
def test_clients_are_counted_by_address_and_ipv6_by_64(rf, address, key):
    request = rf.post("/", REMOTE_ADDR=address)
    assert ratelimit.client_key(request) == key


def test_the_local_default_serves_plain_http(client):
    response = client.get(reverse("index"))
    assert response.status_code == 200  # no redirect to https
    assert "Strict-Transport-Security" not in response
    assert response["X-Content-Type-Options"] == "nosniff" and response["Referrer-Policy"] == "same-origin"


@override_settings(SECURE_SSL_REDIRECT=True)
def test_with_the_https_redirect_the_health_probe_still_answers_over_http(client):
    assert client.get(reverse("index")).status_code == 301
    assert client.get(reverse("healthz")).status_code == 200


def test_explaining_replays_the_run_and_so_is_limited(client, tight):
    from playground.runs import execute

    scenario, _ = create_scenario("inspect", workload_yaml=POD)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda *args: None)
    url = reverse("explain-pod", args=[scenario.slug, run.pk])
    query = {"pod": "default/web", "seq": 1}
    assert client.get(url, query, headers=HTMX).status_code == 200
    assert client.get(url, query, headers=HTMX).status_code == 200
    refused = client.get(url, query, headers=HTMX)
    _assert_refused(refused, "explanations and traffic views", 1)  # 120 a minute: a token every 0.5 s
    assert refused["HX-Retarget"] == "#notice"
