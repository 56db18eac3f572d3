"""The console reads the same small cluster as the API's tests."""

from tests.core.kubeapi.conftest import snapshot as snapshot  # the fixture, shared
