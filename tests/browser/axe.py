"""axe-core (pinned in package.json, installed by `make test`) run inside a Playwright page.

The app's Content Security Policy refuses a script element that carries no nonce, so
page.add_script_tag cannot bring axe in; page.evaluate runs the library's source through the
DevTools protocol, which no page policy governs, and axe then reads the page as any script would.
"""

import json

from playwright.sync_api import Page

from tests.servers import ROOT

AXE_SCRIPT = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe tags each rule with the levels it checks); `list`
# and `target-size` are among them (wcag2a, wcag22aa). Issue #13 also asks for one best-practice
# rule, turned on by name.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BEST_PRACTICE_RULES = ["aria-allowed-role", "heading-order"]
OPTIONS = {
    "runOnly": {"type": "tag", "values": WCAG_TAGS},
    "rules": {rule: {"enabled": True} for rule in BEST_PRACTICE_RULES},
    "resultTypes": ["violations"],  # the passes would only fill the report
}


# A pod fading in (pod-in, 0.35 s) is read by axe at whatever opacity it has reached: its text then
# blends into its background and fails color-contrast by chance. The page is checked at rest: once
# its finite animations have finished (the run bar's stripes never do), for 2 s at most.
SETTLE = """() => Promise.race([
  Promise.all(document.getAnimations()
    .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
    .map((animation) => animation.finished.catch(() => null))),
  new Promise((resolve) => setTimeout(resolve, 2000)),
])"""


def violations(page: Page) -> list[dict]:
    """What axe-core finds on the page at rest, in axe's own result format."""
    page.evaluate(SETTLE)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT.read_text())
    return page.evaluate("options => window.axe.run(document, options).then(r => r.violations)", OPTIONS)


def report(found: list[dict], where: str = "") -> str:
    """A failure message a person can act on: per rule its impact and help, then each element's
    selector and axe's summary of what to fix."""
    nodes = sum(len(violation["nodes"]) for violation in found)
    lines = [f"{len(found)} axe-core rule(s) failed on {nodes} element(s){' at ' + where if where else ''}:"]
    for violation in found:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']} <{violation['helpUrl']}>")
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"    {json.dumps(node['target'])}: {summary}")
            lines.append(f"      {node['html'][:160]}")
    return "\n".join(lines)


def assert_no_violations(page: Page) -> None:
    found = violations(page)
    assert found == [], report(found, page.url)
