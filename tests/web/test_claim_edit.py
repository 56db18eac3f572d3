"""Edit keys stay out of every URL a server sees, and out of every log (issue #12, item 6). The edit
link is /s/<slug>/edit#<key>: the page it opens posts the fragment; old links /s/<slug>/edit/<key>
still grant editing and move on at once; a real Daphne's output never holds a key, right or wrong."""

import re
import secrets
import urllib.error
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from playground.models import Scenario
from tests.servers import DaphneServer, HttpClient, create_scenario
from tests.web.conftest import ON_POSTGRES

pytestmark = pytest.mark.django_db

SCENARIO = """\
apiVersion: playground/v1
kind: Scenario
title: "Claimed"
---
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


@pytest.fixture
def owner() -> Client:
    client = Client()
    assert client.post(reverse("new-scenario")).status_code == 302
    return client


@pytest.fixture
def scenario(owner: Client) -> Scenario:
    return Scenario.objects.get()


def key_of(owner: Client, scenario: Scenario) -> str:
    return owner.session[f"edit:{scenario.slug}"]


def can_edit(client: Client, scenario: Scenario) -> bool:
    return b'data-can-edit="true"' in client.get(reverse("scenario", args=[scenario.slug])).content


def assert_private(response, referrer_policy: str = "no-referrer") -> None:
    assert "no-store" in response["Cache-Control"]
    assert response["Referrer-Policy"] == referrer_policy


def test_the_share_panel_puts_the_key_in_the_fragment(owner, scenario):
    page = owner.get(reverse("scenario", args=[scenario.slug])).content.decode()
    link = re.search(r'value="([^"]*)" class="copy" data-testid="edit-link"', page).group(1)
    assert link == f"http://testserver/s/{scenario.slug}/edit#{key_of(owner, scenario)}"
    assert "/edit/" not in page


def test_the_edit_link_opens_a_page_that_posts_the_fragment(scenario):
    response = Client().get(reverse("claim-edit", args=[scenario.slug]))
    assert response.status_code == 200
    assert_private(response, "same-origin")  # its address holds no key; no-referrer would void CSRF
    page = response.content.decode()
    assert re.search(r'src="/static/js/claim-edit\.[0-9a-f]{12}\.js"', page)  # its hashed name
    assert "<script>" not in page  # no inline script
    assert 'name="csrfmiddlewaretoken"' in page and 'name="key"' in page  # pasting works without script


def test_posting_the_key_grants_editing_and_moves_on_to_the_scenario(owner, scenario):
    browser = Client()
    response = browser.post(reverse("claim-edit", args=[scenario.slug]), {"key": key_of(owner, scenario)})
    assert response.status_code == 303
    assert response["Location"] == reverse("scenario", args=[scenario.slug])
    assert_private(response)
    assert can_edit(browser, scenario)


def test_a_pasted_whole_edit_link_works_too(owner, scenario):
    browser = Client()
    link = f"  https://playground.example/s/{scenario.slug}/edit#{key_of(owner, scenario)}\n"
    assert browser.post(reverse("claim-edit", args=[scenario.slug]), {"key": link}).status_code == 303
    assert can_edit(browser, scenario)


def test_a_wrong_key_is_refused_saying_so_and_grants_nothing(scenario):
    browser, guess = Client(), secrets.token_urlsafe(24)
    response = browser.post(reverse("claim-edit", args=[scenario.slug]), {"key": guess})
    assert response.status_code == 403
    assert_private(response)
    page = response.content.decode()
    assert "does not open this scenario" in page and guess not in page
    assert not can_edit(browser, scenario)


def test_an_old_edit_link_still_grants_editing_and_drops_the_key_from_the_address(owner, scenario):
    browser = Client()
    response = browser.get(f"/s/{scenario.slug}/edit/{key_of(owner, scenario)}")
    assert response.status_code == 303
    assert response["Location"] == reverse("scenario", args=[scenario.slug])
    assert_private(response)
    assert can_edit(browser, scenario)
    wrong = Client().get(f"/s/{scenario.slug}/edit/{secrets.token_urlsafe(24)}")
    assert wrong.status_code == 403
    assert_private(wrong)


def test_guessing_edit_keys_is_rate_limited(owner, scenario):
    guesser = Client()
    statuses = [
        guesser.post(reverse("claim-edit", args=[scenario.slug]), {"key": f"guess-{i}"}).status_code for i in range(12)
    ]
    assert statuses == [403] * 10 + [429] * 2  # the "claim" bucket: 10 at once, then 10 a minute
    refused = guesser.post(reverse("claim-edit", args=[scenario.slug]), {"key": key_of(owner, scenario)})
    assert refused.status_code == 429 and "no-store" in refused["Cache-Control"]
    assert "Too many edit-key attempts" in refused.content.decode()


def status_of(client: HttpClient, path: str) -> int:
    try:
        client.get(path)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


@pytest.mark.django_db(transaction=ON_POSTGRES)  # the server commits what it does; PostgreSQL shares it
def test_no_edit_key_reaches_a_real_servers_logs(live_server_process: DaphneServer):
    server = live_server_process
    links = create_scenario(server.env, SCENARIO)
    slug, key = links["slug"], links["edit"].rsplit("/", 1)[1]
    guesses = [secrets.token_urlsafe(24) for _ in range(4)]

    new_form = HttpClient(server.url)  # the fragment link: its page, then the post its script makes
    new_form.get(f"/s/{slug}/edit")
    status, page = new_form.submit(f"/s/{slug}/edit", {"key": key})  # 303, followed to the scenario
    assert status == 200 and 'data-can-edit="true"' in page

    old_form = HttpClient(server.url)
    assert 'data-can-edit="true"' in old_form.get(f"/s/{slug}/edit/{key}")

    guesser = HttpClient(server.url)
    guesser.get(f"/s/{slug}/edit")
    assert guesser.submit(f"/s/{slug}/edit", {"key": guesses[0]})[0] == 403
    assert status_of(guesser, f"/s/{slug}/edit/{guesses[1]}") == 403
    assert status_of(guesser, f"/s/{slug}/ed%2569t/{guesses[2]}") == 404  # encoded twice: no route, still logged
    assert status_of(guesser, f"/s/no-such-scenario/edit/{guesses[3]}") == 404
    server.stop()  # flushes what it wrote

    output = (Path(server.env["PLAYGROUND_VAR_DIR"]) / f"daphne-{server.port}.log").read_text(errors="replace")
    for secret in (key, *guesses):
        assert secret not in output
    assert output.count("/edit/[redacted]") >= 7  # 4 access-log lines, 3 of Django's: logged, keys not
    assert f'"POST /s/{slug}/edit" 303' in output
    assert f"Forbidden: /s/{slug}/edit/[redacted]" in output  # Django's request logger, redacted too
