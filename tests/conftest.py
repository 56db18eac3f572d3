"""Static files for the tests: collected once per session (hashed and compressed, as a server
serves them) into tests/servers.STATIC_ROOT, for the Django test client and the Daphne servers alike."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings

from playground.static_files import collect_static
from tests.servers import STATIC_ROOT


@pytest.fixture(scope="session")
def collected_static() -> Iterator[Path]:
    """With DEBUG off every `{% static %}` reads the manifest: a page rendered without it fails. The
    servers started through playground.serve check the same folder and find it current."""
    with override_settings(STATIC_ROOT=STATIC_ROOT):
        collect_static()
        yield STATIC_ROOT
