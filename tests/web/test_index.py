import re

import pytest

pytestmark = pytest.mark.django_db


def test_index_loads_vendored_htmx_and_no_extension_it_does_not_use(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    # under its content-hashed name (tests/web/test_static_files.py)
    assert re.search(r"/static/vendor/htmx-4\.0\.1/htmx\.min\.[0-9a-f]{12}\.js", html)
    # The sockets are static/js/scenario-socket.js's own: htmx's websocket extension was loaded by
    # every page and used by none (issue #15).
    assert "hx-ws" not in html
    assert "See how Kubernetes places pods." in html


def test_unknown_page_is_a_plain_404_without_debug_details(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert b"Traceback" not in response.content
