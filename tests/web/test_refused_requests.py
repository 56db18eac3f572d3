"""A request Django refuses before any view (a body over DATA_UPLOAD_MAX_MEMORY_SIZE) is answered
with what happened and what to do, never a bare "Bad Request (400)"; an htmx edit gets its board
back with that reason."""

import pytest
from django.test import Client

from playground.scenarios import create_scenario

pytestmark = pytest.mark.django_db

NODES = [{"name": "worker1", "capacity": {"cpu": "4", "memory": "8Gi", "pods": "10"}}]


@pytest.fixture
def editor(settings) -> tuple[Client, str]:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
    scenario, secret = create_scenario("big import", nodes=NODES)
    client = Client()
    client.get(f"/s/{scenario.slug}?edit={secret}")
    return client, scenario.slug


def test_an_oversized_import_from_the_page_gets_the_board_back_with_the_limit(editor):
    client, slug = editor
    nodes_yaml = "apiVersion: v1\nkind: List\nitems:\n" + "- {kind: Node, metadata: {name: x}}\n" * 4000
    answer = client.post(
        f"/s/{slug}/import", {"nodes_yaml": nodes_yaml, "version": "1"}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 413
    text = answer.content.decode()
    assert 'id="board"' in text and 'data-node="worker1"' in text  # the board as it was
    assert "more than 0.0625 MiB, the most a request may carry: nothing was changed" in text
    assert "Bad Request" not in text


def test_an_oversized_plain_form_post_gets_a_page_that_says_why(editor):
    client, slug = editor
    answer = client.post(f"/s/{slug}/workload", {"workload": "x" * 100_000, "version": "1"})
    assert answer.status_code == 413
    assert "That request was refused" in answer.content.decode()
    assert "the most a request may carry" in answer.content.decode()
