"""Bearer tokens for a scenario's API: a view token (reads) and an edit token (reads and writes).
Both are keyed hashes, never the edit link: the view token of the scenario's slug, the edit token
of the slug and the stored hash of the edit secret (so a new edit secret revokes the old token).
Neither is stored; the server checks one by computing it again."""

import hmac
from enum import StrEnum

from django.utils.crypto import salted_hmac

from playground.models import Scenario

VIEW_PREFIX = "kpv_"
EDIT_PREFIX = "kpe_"


class Access(StrEnum):
    VIEW = "view"
    EDIT = "edit"


USERS = {Access.VIEW: "playground:viewer", Access.EDIT: "playground:editor"}


def view_token(scenario: Scenario) -> str:
    return VIEW_PREFIX + salted_hmac("kubeapi.view", scenario.slug, algorithm="sha256").hexdigest()[:40]


def edit_token(scenario: Scenario) -> str:
    key = f"{scenario.slug}:{scenario.edit_secret_hash}"
    return EDIT_PREFIX + salted_hmac("kubeapi.edit", key, algorithm="sha256").hexdigest()[:40]


def access_of(scenario: Scenario, authorization: str, path_token: str = "") -> Access | None:
    """What an `Authorization: Bearer <token>` header, or a token in the API's path (over plain
    HTTP, where kubectl sends no credentials), grants on the scenario; None for nothing."""
    scheme, _, token = authorization.partition(" ")
    token = path_token or (token.strip() if scheme.lower() == "bearer" else "")
    if not token:
        return None
    if token.startswith(EDIT_PREFIX) and hmac.compare_digest(token, edit_token(scenario)):
        return Access.EDIT
    if token.startswith(VIEW_PREFIX) and hmac.compare_digest(token, view_token(scenario)):
        return Access.VIEW
    return None
