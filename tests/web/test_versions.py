"""Permalinks never reveal another scenario (issue #12, item 5): a version belongs to its own
scenario (its permalink derives from the scenario and the content), and a version's page shows
only its own content, linking the live scenario for that scenario's editor alone."""

import hashlib
import re

import pytest
from django.test import Client
from django.urls import reverse

from playground import board
from playground.models import PERMALINK_LENGTH, Scenario, ScenarioVersion
from playground.scenarios import create_scenario, export_document, snapshot

pytestmark = pytest.mark.django_db

POD_YAML = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx}]\n"

HTMX = {"HX-Request": "true"}
SHARED = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c, image: nginx}]}\n"
PRIVATE_TITLE = "Bob PRIVATE: acme prod migration"
PRIVATE_WORKLOAD = SHARED.replace("name: web", "name: acme-billing-db")


def new_scenario(client: Client) -> Scenario:
    before = set(Scenario.objects.values_list("pk", flat=True))
    assert client.post(reverse("new-scenario")).status_code == 302
    return Scenario.objects.exclude(pk__in=before).get()


def fork_permalink(client: Client, permalink: str) -> Scenario:
    before = set(Scenario.objects.values_list("pk", flat=True))
    assert client.post(reverse("fork-version", args=[permalink])).status_code == 302
    return Scenario.objects.exclude(pk__in=before).get()


def save_workload(client: Client, scenario: Scenario, text: str) -> None:
    scenario.refresh_from_db()
    url = reverse("save-workload", args=[scenario.slug])
    assert client.post(url, {"version": scenario.version, "workload": text}, headers=HTMX).status_code == 200


def rename(client: Client, scenario: Scenario, title: str) -> None:
    scenario.refresh_from_db()
    url = reverse("save-details", args=[scenario.slug])
    assert client.post(url, {"version": scenario.version, "title": title}, headers=HTMX).status_code == 200


def share_panel_permalink(client: Client, scenario: Scenario) -> str:
    page = client.get(reverse("scenario", args=[scenario.slug])).content.decode()
    found = re.search(r'Permalink \(exactly this version\)<input readonly value="[^"]*/v/(\w+)"', page)
    assert found, "the Share panel shows a permalink"
    return found.group(1)


def reachable_text(client: Client, start: str, hops: int = 2) -> str:
    """The pages a visitor reaches from `start` by following same-site links, `hops` deep."""
    seen, frontier, text = set(), [start], []
    for _ in range(hops + 1):
        following = []
        for path in frontier:
            if path in seen:
                continue
            seen.add(path)
            response = client.get(path)
            body = response.content.decode() if response.status_code == 200 else ""
            text.append(body)
            following += [link for link in re.findall(r'href="(/(?:s|v|embed)/[^"#?]*)"', body) if link not in seen]
        frontier = following
    return "\n".join(text)


def test_a_fork_of_a_shared_permalink_never_leads_to_another_fork(client):
    alice, bob, mallory = Client(), Client(), Client()
    alices = new_scenario(alice)
    save_workload(alice, alices, SHARED)
    shared = share_panel_permalink(alice, alices)

    bobs = fork_permalink(bob, shared)  # Bob forks Alice's permalink, then works on it privately
    bobs_first = share_panel_permalink(bob, bobs)
    rename(bob, bobs, PRIVATE_TITLE)
    save_workload(bob, bobs, PRIVATE_WORKLOAD)

    mallorys = fork_permalink(mallory, shared)  # the same content as Bob's first version
    hers = share_panel_permalink(mallory, mallorys)
    assert hers != bobs_first
    assert hers not in set(bobs.versions.values_list("permalink", flat=True))
    assert ScenarioVersion.objects.get(permalink=hers).scenario == mallorys

    seen = reachable_text(mallory, reverse("scenario", args=[mallorys.slug]), hops=3)
    assert bobs.slug not in seen and PRIVATE_TITLE not in seen and "acme-billing-db" not in seen
    assert alices.slug not in seen  # the permalink she forked leads to its content only
    version_page = mallory.get(reverse("version", args=[shared])).content.decode()
    assert alices.slug not in version_page and "open the live scenario" not in version_page
    # Even Bob's own first version, were its permalink known, shows no way to his live scenario.
    bobs_version = mallory.get(reverse("version", args=[bobs_first])).content.decode()
    assert bobs.slug not in bobs_version and PRIVATE_TITLE not in bobs_version


def test_two_blank_scenarios_have_different_permalinks(client):
    first_browser, second_browser = Client(), Client()
    first, second = new_scenario(first_browser), new_scenario(second_browser)
    assert export_document(first) == export_document(second)  # the same content
    theirs, mine = share_panel_permalink(first_browser, first), share_panel_permalink(second_browser, second)
    assert theirs != mine
    page = second_browser.get(reverse("version", args=[mine])).content.decode()
    assert first.slug not in page and second.slug in page  # its own live scenario: this browser edits it
    assert first.slug not in second_browser.get(reverse("embed", args=[mine])).content.decode()


def test_the_live_scenario_is_linked_from_a_version_for_its_editor_only(client):
    owner = Client()
    scenario = new_scenario(owner)
    permalink = share_panel_permalink(owner, scenario)
    own = owner.get(reverse("version", args=[permalink])).content.decode()
    assert 'data-testid="live-scenario"' in own and reverse("scenario", args=[scenario.slug]) in own
    stranger = Client().get(reverse("version", args=[permalink]))
    assert stranger.status_code == 200 and b"Fork this version" in stranger.content
    assert scenario.slug.encode() not in stranger.content
    embedded = owner.get(reverse("embed", args=[permalink]))  # an embed is for others' readers
    assert embedded.status_code == 200 and scenario.slug.encode() not in embedded.content


def test_an_old_version_shared_by_two_scenarios_leaks_neither(client):
    """Before, versions were content-addressed alone: a scenario whose content matched another's
    first version used that row. Old rows keep their permalinks (old links open), lead nowhere,
    and each scenario now gets versions of its own."""
    first, _ = create_scenario("Shared blank")
    second, _ = create_scenario("Shared blank")
    document = export_document(first)
    old_permalink = hashlib.sha256(f"Shared blank\n\0{document}".encode()).hexdigest()[:PERMALINK_LENGTH]
    old = ScenarioVersion.objects.create(
        scenario=first, number=1, permalink=old_permalink, title=first.title, document=document, nodes=[]
    )
    first.title = PRIVATE_TITLE  # the first scenario moves on privately
    first.save()

    page = Client().get(reverse("version", args=[old_permalink]))
    assert page.status_code == 200  # the old link still opens, immutable
    text = page.content.decode()
    assert first.slug not in text and PRIVATE_TITLE not in text and "Shared blank" in text
    assert snapshot(second) != old and snapshot(second).scenario == second
    assert share_panel_permalink(Client(), second) != old_permalink


def test_the_current_version_is_found_without_exporting_the_board(monkeypatch: pytest.MonkeyPatch):
    scenario, _ = create_scenario("Found", workload_yaml=POD_YAML)
    saved = snapshot(scenario)

    def no_export(_scenario: Scenario) -> str:
        raise AssertionError("the board was exported again")

    monkeypatch.setattr("playground.scenarios.export_document", no_export)
    assert snapshot(Scenario.objects.get(pk=scenario.pk)) == saved


def test_the_verified_version_is_found_again_without_reading_the_nodes(monkeypatch: pytest.MonkeyPatch):
    scenario, _ = create_scenario("Verified", workload_yaml=POD_YAML)
    saved = snapshot(Scenario.objects.get(pk=scenario.pk))
    edited = board.set_unschedulable(scenario, scenario.version, scenario.nodes.first().pk, True)  # a cordon

    def no_loading(_scenario_id: int) -> list:
        raise AssertionError("the nodes were read again")

    monkeypatch.setattr("playground.scenarios.load_nodes", no_loading)
    fresh = Scenario.objects.get(pk=scenario.pk)
    assert snapshot(fresh) == edited.edited_version != saved  # a Run after an edit: nothing compared
    assert snapshot(Scenario.objects.get(pk=scenario.pk)).document == edited.edited_version.document


def test_a_node_saved_on_its_own_tells_the_scenario_its_content_changed():
    scenario, _ = create_scenario("Touched", workload_yaml=POD_YAML)
    before = Scenario.objects.get(pk=scenario.pk).updated_at
    node = scenario.nodes.first()
    node.unschedulable = True
    node.save()
    assert Scenario.objects.get(pk=scenario.pk).updated_at > before
    moved = Scenario.objects.get(pk=scenario.pk).updated_at
    node.delete()
    assert Scenario.objects.get(pk=scenario.pk).updated_at > moved


@pytest.mark.parametrize("change", ["workload", "node label", "label order", "title"])
def test_content_changed_without_a_new_version_number_is_still_a_new_version(change: str):
    scenario, _ = create_scenario("Changed", workload_yaml=POD_YAML)
    saved = snapshot(scenario)
    node = scenario.nodes.first()
    if change == "workload":
        scenario.workload_yaml += "# edited\n"
        scenario.save()
    elif change == "node label":
        node.labels = {**node.labels, "disk": "ssd"}
        node.save()
    elif change == "label order":
        node.labels = {"b": "2", "a": "1"}
        node.save()
        saved = snapshot(Scenario.objects.get(pk=scenario.pk))
        node.labels = {"a": "1", "b": "2"}  # the same labels, written in another order: another YAML
        node.save()
    else:
        scenario.title = "Renamed"
        scenario.save()
    fresh = Scenario.objects.get(pk=scenario.pk)
    again = snapshot(fresh)
    assert again.document == export_document(fresh)
    if change == "label order":  # PostgreSQL's jsonb keeps labels in its own order: the same YAML there
        assert (again == saved) == (saved.document == again.document)
    else:
        assert again != saved
