import re

import pytest

pytestmark = pytest.mark.django_db


def test_index_loads_vendored_htmx_and_its_websocket_extension(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    # under their content-hashed names (tests/web/test_static_files.py)
    assert re.search(r"/static/vendor/htmx-4\.0\.1/htmx\.min\.[0-9a-f]{12}\.js", html)
    assert re.search(r"/static/vendor/htmx-4\.0\.1/hx-ws\.min\.[0-9a-f]{12}\.js", html)
    assert "See how Kubernetes places pods." in html


def test_unknown_page_is_a_plain_404_without_debug_details(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert b"Traceback" not in response.content
