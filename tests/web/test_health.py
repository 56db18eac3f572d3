import pytest
from channels.layers import channel_layers
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok_when_database_and_channel_layer_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "channel_layer": "ok"}}


def test_healthz_answers_503_naming_the_channel_layer_when_it_is_unreachable(client):
    # A Redis layer on a port where nothing listens: a real connection failure, not a mock.
    broken = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}
    }
    with override_settings(CHANNEL_LAYERS=broken):
        channel_layers.backends.clear()
        try:
            response = client.get("/healthz")
        finally:
            channel_layers.backends.clear()
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] != "ok"


def test_status_fragment_lists_each_service(client):
    response = client.get("/status", headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="status-badge"' in html
    assert "database: ok" in html
    assert "channel layer: ok" in html
    assert "<html" not in html  # a fragment, not the page


@pytest.fixture
def database_refusing_writes():
    """This connection's database answers reads and refuses writes, for real: SQLite's query_only
    pragma (what a read-only file does), PostgreSQL's read-only transaction (what a hot standby or
    default_transaction_read_only does). Undone afterwards (PostgreSQL: by the test's rollback)."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA query_only = ON")
        else:
            cursor.execute("SET TRANSACTION READ ONLY")
    yield
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = OFF")


def test_healthz_answers_503_naming_the_database_when_it_refuses_writes(client, database_refusing_writes):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"].startswith("refuses writes: ")
    assert "read" in body["checks"]["database"].lower()  # the driver's own words: readonly, read-only
    assert body["checks"]["channel_layer"] == "ok"
    page = client.get("/status", headers={"HX-Request": "true"}).content.decode()
    assert "refuses writes" in page  # the footer's badge says it too
