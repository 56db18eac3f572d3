"""Request paths read as the API server's RequestInfoFactory reads them."""

import pytest

from scheduler_core.kubeapi.paths import ApiPath, Discovery, parse_path


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/version", Discovery("/version")),
        ("/api", Discovery("/api")),
        ("/apis", Discovery("/apis")),
        ("/api/v1", Discovery("/api/v1")),
        ("/apis/apps", Discovery("/apis/apps")),
        ("/apis/apps/v1", Discovery("/apis/apps/v1")),
        ("/api/v1/nodes", ApiPath("", "v1", "nodes")),
        ("/api/v1/nodes/worker1", ApiPath("", "v1", "nodes", name="worker1")),
        ("/api/v1/pods", ApiPath("", "v1", "pods")),
        ("/api/v1/namespaces/default/pods", ApiPath("", "v1", "pods", "default")),
        ("/api/v1/namespaces/default/pods/web-0", ApiPath("", "v1", "pods", "default", "web-0")),
        ("/api/v1/namespaces/default/pods/web-0/eviction", ApiPath("", "v1", "pods", "default", "web-0", "eviction")),
        (
            "/apis/apps/v1/namespaces/shop/deployments/web/scale",
            ApiPath("apps", "v1", "deployments", "shop", "web", "scale"),
        ),
        # The namespaces themselves: a list, one, and one's status.
        ("/api/v1/namespaces", ApiPath("", "v1", "namespaces")),
        ("/api/v1/namespaces/shop", ApiPath("", "v1", "namespaces", name="shop")),
        ("/api/v1/namespaces/shop/status", ApiPath("", "v1", "namespaces", name="shop", subresource="status")),
        ("/apis/apps/v1/deployments/", ApiPath("apps", "v1", "deployments")),
    ],
)
def test_paths(path: str, expected: ApiPath | Discovery) -> None:
    assert parse_path(path) == expected


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/v1/namespaces/a/pods/b/c/d", "/openapi/v2"])
def test_paths_the_api_does_not_serve(path: str) -> None:
    assert parse_path(path) is None
