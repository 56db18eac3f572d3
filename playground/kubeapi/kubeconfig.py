"""The kubeconfig that points kubectl (or a client library) at a scenario's API."""

import yaml
from django.http import HttpRequest
from django.urls import reverse

from playground.kubeapi.tokens import Access, edit_token, view_token
from playground.models import Scenario


def server_url(request: HttpRequest, scenario: Scenario, token: str) -> str:
    """The app's origin and the scenario's API path: kubectl appends /api, /apis... to it. Over
    plain HTTP the token rides in the path, since kubectl sends credentials only over TLS
    (clientcmd reads a user's token only for a TLS transport); the access log redacts it."""
    if request.is_secure():
        return request.build_absolute_uri(reverse("kubeapi-root", args=[scenario.slug]))
    return request.build_absolute_uri(reverse("kubeapi-token-root", args=[scenario.slug, token]))


def kubeconfig(request: HttpRequest, scenario: Scenario, access: Access) -> str:
    name = f"playground-{scenario.slug}"
    user = f"{name}-{access.value}"
    token = edit_token(scenario) if access is Access.EDIT else view_token(scenario)
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": name, "cluster": {"server": server_url(request, scenario, token)}}],
        "users": [{"name": user, "user": {"token": token}}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": user, "namespace": "default"}}],
        "current-context": name,
        "preferences": {},
    }
    title = " ".join(scenario.title.split())  # one comment line, whatever the title holds
    header = f"# {title} ({access.value} access): kubectl --kubeconfig <this file> get pods -A\n"
    return header + yaml.safe_dump(config, sort_keys=False)
