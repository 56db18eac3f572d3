"""Pages are gzipped for clients that accept it (issue #14: a 500-node scenario page is over a
megabyte of HTML), and only for them."""

import gzip

import pytest
from django.urls import reverse

from playground.scenarios import create_scenario

pytestmark = pytest.mark.django_db

NODES = [
    {"name": f"node-{index}", "labels": {"topology.kubernetes.io/zone": f"zone-{index % 3}"}} for index in range(200)
]


def test_a_scenario_page_is_gzipped_when_the_client_accepts_it(client):
    scenario, _ = create_scenario("Big", nodes=NODES)
    url = reverse("scenario", args=[scenario.slug])
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content).decode()
    assert 'data-node-name="node-199"' in html
    assert len(packed.content) * 5 < len(html.encode())  # a board of 200 nodes packs well


def test_a_client_that_accepts_no_gzip_gets_the_page_as_it_is(client):
    scenario, _ = create_scenario("Plain", nodes=NODES[:3])
    response = client.get(reverse("scenario", args=[scenario.slug]))
    assert not response.has_header("Content-Encoding")
    assert 'data-node-name="node-2"' in response.content.decode()
