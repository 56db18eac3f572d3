"""The Share panel offers kubeconfigs for the scenario's Kubernetes API: an editor gets a
read-and-write one and a read-only one; the page stays axe-clean with the panel open."""

import yaml
from playwright.sync_api import Page, expect

from tests.browser.test_board import open_gallery_copy


def test_an_editor_downloads_both_kubeconfigs(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url)
    page.locator("details.share > summary").click()
    panel = page.get_by_test_id("share-kubectl")
    expect(panel).to_be_visible()
    tokens = {}
    for testid in ("kubeconfig-edit", "kubeconfig-view"):
        with page.expect_download() as download:
            panel.get_by_test_id(testid).click()
        config = yaml.safe_load(download.value.path().read_text())
        tokens[testid] = config["users"][0]["user"]["token"]
        assert config["clusters"][0]["cluster"]["server"].startswith(server_url + "/k8s/")
    assert tokens["kubeconfig-edit"].startswith("kpe_") and tokens["kubeconfig-view"].startswith("kpv_")
    assert "kubectl --kubeconfig kubeconfig get pods" in panel.locator("input").input_value()
