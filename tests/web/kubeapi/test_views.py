"""The API's HTTP side: kubeconfigs and their tokens, authentication, and every failure a Status
in JSON (never a page, never a traceback)."""

import json

import pytest
import yaml
from django.test import Client
from django.urls import reverse

from playground.kubeapi.tokens import Access, access_of, edit_token, view_token
from playground.kubeapi.views import _timeout
from playground.models import Scenario

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Client:
    client = Client()
    assert client.post(reverse("new-scenario")).status_code == 302
    return client


@pytest.fixture
def scenario(owner: Client) -> Scenario:
    return Scenario.objects.get()


def kubeconfig_of(client: Client, scenario: Scenario, query: str = "") -> dict:
    response = client.get(reverse("kubeconfig", args=[scenario.slug]) + query)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert "no-store" in response["Cache-Control"]
    return yaml.safe_load(response.content)


def test_an_editor_gets_an_edit_token_and_anyone_else_a_view_token(owner: Client, scenario: Scenario) -> None:
    edit = kubeconfig_of(owner, scenario)
    view = kubeconfig_of(Client(), scenario)
    assert edit["users"][0]["user"]["token"] == edit_token(scenario)
    assert view["users"][0]["user"]["token"] == view_token(scenario)
    assert kubeconfig_of(owner, scenario, "?access=view")["users"][0]["user"]["token"] == view_token(scenario)
    # Over plain HTTP kubectl sends no credentials: the token rides in the server's path.
    assert view["clusters"][0]["cluster"]["server"] == f"http://testserver/k8s/{scenario.slug}/t/{view_token(scenario)}"
    assert view["current-context"] == view["contexts"][0]["name"]
    assert view["contexts"][0]["context"]["namespace"] == "default"
    key = owner.session[f"edit:{scenario.slug}"]
    assert key not in json.dumps(edit)  # never the edit link itself


def test_over_tls_the_token_goes_in_the_header(scenario: Scenario) -> None:
    view = yaml.safe_load(Client().get(reverse("kubeconfig", args=[scenario.slug]), secure=True).content)
    assert view["clusters"][0]["cluster"]["server"] == f"https://testserver/k8s/{scenario.slug}"


def test_tokens_grant_what_they_say_and_a_new_edit_secret_revokes_the_old(scenario: Scenario) -> None:
    assert access_of(scenario, f"Bearer {view_token(scenario)}") is Access.VIEW
    assert access_of(scenario, f"bearer {edit_token(scenario)}") is Access.EDIT
    assert access_of(scenario, "", edit_token(scenario)) is Access.EDIT
    assert access_of(scenario, f"Basic {view_token(scenario)}") is None
    assert access_of(scenario, "Bearer kpe_" + "0" * 40) is None
    old = edit_token(scenario)
    scenario.set_edit_secret()
    assert access_of(scenario, f"Bearer {old}") is None
    other = Scenario.objects.create(title="other")
    assert access_of(other, f"Bearer {view_token(scenario)}") is None


def api(
    client: Client, scenario: Scenario, path: str, method: str = "get", token: str = "", **extra
) -> tuple[int, dict]:
    url = reverse("kubeapi", args=[scenario.slug, path.lstrip("/")])
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    response = getattr(client, method)(url, **headers, **extra)
    assert response["Content-Type"] == "application/json"
    return response.status_code, json.loads(response.content)


def test_failures_are_status_objects(scenario: Scenario) -> None:
    client = Client()
    code, body = api(client, scenario, "/api/v1/nodes")
    assert (code, body["kind"], body["reason"]) == (401, "Status", "Unauthorized")
    token = view_token(scenario)
    code, body = api(client, scenario, "/api/v1/widgets", token=token)
    assert (code, body["message"]) == (404, "the server could not find the requested resource")
    code, body = api(client, scenario, "/api/v1/namespaces/default/nodes", token=token)
    assert code == 404  # nodes are not namespaced
    code, body = api(
        client, scenario, "/api/v1/namespaces/default/pods", "post", token, data="{}", content_type="application/json"
    )
    assert (code, body["reason"]) == (403, "Forbidden")
    assert body["message"] == (
        'pods is forbidden: User "playground:viewer" cannot create resource "pods" in API group "" '
        'in the namespace "default"'
    )
    code, body = api(client, scenario, "/apis", "post", token)
    assert (code, body["reason"]) == (405, "MethodNotAllowed")
    response = client.get("/k8s/nosuchslug/api/v1/pods", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 404 and json.loads(response.content)["kind"] == "Status"


def test_discovery_needs_a_token_too(scenario: Scenario) -> None:
    code, body = api(Client(), scenario, "/api", token=view_token(scenario))
    assert (code, body["kind"]) == (200, "APIVersions")
    code, body = api(Client(), scenario, "/version", token=view_token(scenario))
    assert body["gitVersion"].startswith("v1.34.")
    assert api(Client(), scenario, "/version")[0] == 401


@pytest.mark.parametrize(
    ("asked", "timeout"), [("", 1800.0), ("0", 1800.0), ("-5", 1800.0), ("30", 30.0), ("9999", 1800.0)]
)
def test_a_watchs_timeout_zero_or_none_is_the_servers_own(asked: str, timeout: float) -> None:
    assert _timeout(asked) == timeout
