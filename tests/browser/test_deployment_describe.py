"""`kubectl describe deployment` in the rollout view (issue #16, item 7): a Deployment card's describe
button opens the deployment at the player's event in the card, and the panel follows the player."""

import re

from playwright.sync_api import Page, expect

from tests.browser import axe
from tests.browser.player import play_to_the_end
from tests.browser.test_board import open_gallery_copy

ROLLING_UPDATE = "Rolling update with maxSurge and maxUnavailable"


def test_a_deployment_card_describes_its_deployment_at_the_players_event(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, ROLLING_UPDATE)
    total = play_to_the_end(page)
    card = page.locator("#run-panel .rollout[data-deployment='default/nginx']")
    button = card.get_by_role("button", name="describe deployment nginx")
    expect(button).to_have_attribute("aria-expanded", "false")
    # From the keyboard: the button opens the panel in the card, at the player's event.
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    panel = card.locator("#deployment-describe-run")
    expect(panel).to_have_attribute("aria-label", "kubectl describe deployment default/nginx")
    summary = panel.locator("summary")
    expect(summary).to_contain_text("kubectl describe deployment nginx")
    expect(summary).to_contain_text(f"at event {total}")
    expect(panel.locator("[data-describe-new-replica-set]")).to_contain_text("(3/3 replicas created)")
    expect(panel.locator("tr[data-condition='Progressing']")).to_contain_text("NewReplicaSetAvailable")

    # Back to the old ReplicaSet's last scale-down: both ReplicaSets listed, the old one still with its pod.
    page.locator("#run-panel [data-player='log'] tr[data-frame]", has_text="from 1 to 0").first.click()
    expect(panel.locator("[data-describe-old-replica-sets]")).to_contain_text("(1/0 replicas created)")
    expect(panel.locator("[data-describe-replicas]")).to_have_text(
        "3 desired | 3 updated | 4 total | 1 available | 3 unavailable"
    )
    expect(summary).to_contain_text("t=26s")
    # The conditions table scrolls sideways where it is wider than the card, from the keyboard too.
    region = panel.get_by_role("region", name="Conditions:")
    region.focus()
    expect(region).to_be_focused()
    page.screenshot(path=screenshot_path, full_page=True)
    axe.assert_no_violations(page)
    page.emulate_media(color_scheme="dark")
    axe.assert_no_violations(page)
    page.emulate_media(color_scheme="light")

    # Played from its first rollout, the panel follows the player, and the card's button keeps the focus.
    page.locator("#run-panel [data-player='log'] tr[data-frame]", has_text="from 0 to 3").first.click()
    expect(panel.locator("[data-describe-new-replica-set]")).to_contain_text("(0/3 replicas created)")
    shown = summary.inner_text()
    button.focus()
    play = page.locator("#run-panel [data-player='play']")
    play.dispatch_event("click")  # a click that leaves the focus where it is
    expect(summary).not_to_have_text(shown, timeout=10_000)
    expect(summary).to_contain_text(re.compile(r"at event \d+, t="))
    expect(button).to_be_focused()
    play.dispatch_event("click")
    # The button again closes the panel.
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(card.locator("#deployment-describe-run")).to_have_count(0)
