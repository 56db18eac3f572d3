"""`kubectl get ... -o json` imports as its YAML does (playground/import_json.py): the same board
and workload, streamed item by item, with the line of an error counted in the text as sent."""

import gzip
import io
import json

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from playground import import_json, importing
from playground.models import Scenario
from playground.scenarios import InvalidEdit
from tests.web.kubectl_output import nodes_yaml, pods_yaml


def as_json(yaml_text: str) -> str:
    """What `-o json` prints for the same objects: kubectl indents by four spaces."""
    return json.dumps(yaml.load(yaml_text, Loader=yaml.CSafeLoader), indent=4) + "\n"


def test_json_imports_the_same_board_and_workload_as_yaml():
    nodes, pods = nodes_yaml(30), pods_yaml(120, 30)
    from_yaml = importing.import_cluster(nodes, pods)
    from_json = importing.import_cluster(as_json(nodes), as_json(pods))
    assert from_json.nodes == from_yaml.nodes and len(from_json.nodes) == 30
    assert from_json.workload_yaml == from_yaml.workload_yaml and from_json.workload_yaml.count("\n") > 100
    assert from_json.skipped_pods == from_yaml.skipped_pods > 0


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_any_cut_of_the_stream_reads_the_same(monkeypatch, chunk):
    """A number, a string or an item split between two pieces of the file is read whole."""
    monkeypatch.setattr(import_json, "CHUNK_CHARS", chunk)
    nodes = as_json(nodes_yaml(4))
    expected = importing.import_cluster(nodes_yaml(4)).nodes
    pieces = [nodes[index : index + 5] for index in range(0, len(nodes), 5)]
    assert importing.import_cluster(iter(pieces)).nodes == expected


def test_one_object_a_bare_array_and_minified_json_are_read():
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}, "status": {"capacity": {"cpu": "2"}}}
    other = {**node, "metadata": {"name": "n2"}}
    assert [n["name"] for n in importing.import_cluster(json.dumps(node)).nodes] == ["n1"]
    assert [n["name"] for n in importing.import_cluster(json.dumps([node, other])).nodes] == ["n1", "n2"]
    listed = {"apiVersion": "v1", "kind": "List", "items": [node, other], "metadata": {"resourceVersion": ""}}
    assert len(importing.import_cluster(json.dumps(listed, separators=(",", ":"))).nodes) == 2


def test_a_json_syntax_error_names_its_line():
    text = as_json(nodes_yaml(3))
    lines = text.splitlines(keepends=True)
    broken = next(index for index, line in enumerate(lines) if '"kind": "Node"' in line and index > 200)
    lines[broken] = lines[broken].rstrip().rstrip(",") + "\n"  # a comma missing
    with pytest.raises(InvalidEdit) as refused:
        importing.import_cluster("".join(lines))
    assert str(refused.value).startswith(f"nodes: line {broken + 2}: not valid JSON: Expecting ',' delimiter")


def test_an_item_the_engine_refuses_names_the_items_line_and_field():
    text = as_json(nodes_yaml(3)).replace('"cpu": "8"', '"cpu": "eight"', 3)
    line = 1 + text[: text.index('"kind": "Node"', text.index('"kind": "Node"') + 1)].count("\n")
    with pytest.raises(InvalidEdit) as refused:
        importing.import_cluster(text)
    message = str(refused.value)
    assert message.startswith("nodes: line ") and "status.capacity.cpu" in message
    item_line = int(message.split()[2].rstrip(":"))
    assert item_line < line  # the line where that item starts, before its kind
    assert text.splitlines()[item_line - 1].strip() == "{"


def test_text_after_the_document_and_an_item_that_is_not_an_object_are_refused():
    with pytest.raises(InvalidEdit, match=r"nodes: line 2: not valid JSON: text after the end"):
        importing.import_cluster('{"kind": "List", "items": []}\n{"kind": "Node"}')
    with pytest.raises(InvalidEdit, match=r"nodes: line 1: an item must be an object"):
        importing.import_cluster('{"kind": "List", "items": [3]}')
    with pytest.raises(InvalidEdit, match=r"not valid JSON: Unterminated string"):
        importing.import_cluster('{"kind": "List", "items": [{"kind": "No')


def test_one_file_of_nodes_and_pods_fills_the_board_and_the_workload():
    """`kubectl get nodes,pods -A -o yaml` is one List of both kinds, in the nodes field alone."""
    nodes = yaml.safe_load(nodes_yaml(5))
    pods = yaml.safe_load(pods_yaml(20, 5))
    both = {"apiVersion": "v1", "kind": "List", "items": nodes["items"] + pods["items"]}
    expected = importing.import_cluster(nodes_yaml(5), pods_yaml(20, 5))
    for text in (yaml.safe_dump(both), json.dumps(both)):
        imported = importing.import_cluster(text)
        assert imported.nodes == expected.nodes
        assert imported.workload_yaml == expected.workload_yaml and imported.workload_yaml
    twice = importing.import_cluster(json.dumps(both), json.dumps(both))  # the one file in both fields
    assert twice.workload_yaml == expected.workload_yaml


@pytest.mark.django_db
def test_a_gzipped_json_file_imports_through_the_page(client):
    client.post(reverse("new-scenario"))
    scenario = Scenario.objects.get()
    data = {
        "version": scenario.version,
        "nodes_file": SimpleUploadedFile("nodes.json.gz", gzip.compress(as_json(nodes_yaml(12)).encode())),
        "pods_file": SimpleUploadedFile("pods.json", as_json(pods_yaml(30, 12)).encode()),
    }
    response = client.post(reverse("import-cluster", args=[scenario.slug]), data, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content[:800]
    assert scenario.nodes.count() == 12
    scenario.refresh_from_db()
    assert scenario.workload_yaml.count("\n") == 29  # pod 0 Succeeded


def test_a_large_json_list_is_read_through_a_bounded_window(monkeypatch):
    """Items are cut down as they are read, and the text read is let go: the buffer stays within a
    few pieces whatever the file's size."""
    monkeypatch.setattr(import_json, "CHUNK_CHARS", 20_000)
    buffered: list[int] = []
    more = import_json._Text.more

    def recorded(self: import_json._Text) -> bool:
        result = more(self)
        buffered.append(len(self.buffer))
        return result

    monkeypatch.setattr(import_json._Text, "more", recorded)
    decoded: list[int] = []

    def keep(item: dict) -> dict | None:
        decoded.append(len(json.dumps(item)))
        return importing._kept_object(item)

    text = as_json(pods_yaml(200, 5))
    assert len(text) > 40 * 20_000
    kept = [item for _line, item in import_json.json_objects(io.StringIO(text), keep)]
    assert len(kept) == 200
    assert max(buffered) < 3 * 20_000 + max(decoded)
    assert sum(len(json.dumps(item)) for item in kept) < sum(decoded) / 2
    assert all("managedFields" not in item["metadata"] and "env" not in item["spec"]["containers"][0] for item in kept)


def test_yaml_in_flow_style_is_not_taken_for_json():
    flow = "{apiVersion: v1, kind: Node, metadata: {name: n1}, status: {capacity: {cpu: '2'}}}\n"
    assert [node["name"] for node in importing.import_cluster(flow).nodes] == ["n1"]
    assert import_json.looks_like_json('\n{\n    "apiVersion": "v1"') and import_json.looks_like_json("[]")
    assert not import_json.looks_like_json("{apiVersion: v1}") and not import_json.looks_like_json("[a, b]")


@pytest.mark.parametrize("cut", range(1, 12))
def test_a_top_level_number_or_word_cut_between_pieces_is_read_whole(monkeypatch, cut):
    monkeypatch.setattr(import_json, "CHUNK_CHARS", 1)
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}
    text = '{"apiVersion": "v1", "x": 12.5e3, "flag": false, "items": [' + json.dumps(node) + '], "kind": "List"}'
    at = text.index("12.5e3") + cut % 6 if cut < 6 else text.index("false") + cut - 6
    pieces = [text[:at], text[at:]]
    items = list(import_json.json_objects(iter(pieces), lambda item: item))
    assert [item["metadata"]["name"] for _line, item in items] == ["n1"]


def test_a_mistake_early_in_a_big_json_file_is_told_without_reading_the_rest(monkeypatch):
    monkeypatch.setattr(import_json, "CHUNK_CHARS", 4096)  # the file: a hundred pieces of that
    read: list[int] = []

    def pieces():
        yield '{"kind": "List", "items": [\n{"kind": "Node",, "metadata": {}}\n'
        for index in range(10_000):
            read.append(index)
            yield f'{{"kind": "Node", "metadata": {{"name": "n{index}"}}}},\n'

    with pytest.raises(import_json.JsonImportError, match=r"line 2: not valid JSON: Expecting property name"):
        list(import_json.json_objects(pieces(), lambda item: item))
    assert len(read) < 10_000 * 0.2  # about a piece more, not the file


def test_a_lone_surrogate_is_refused_by_name_not_with_a_server_error():
    pods = json.loads(as_json(pods_yaml(2, 1)))
    pods["items"][1]["spec"]["containers"][0]["image"] = "nginx\ud800"
    with pytest.raises(InvalidEdit, match=r"not a Unicode character"):
        importing.import_cluster(nodes_yaml(1), json.dumps(pods))


@pytest.mark.django_db
def test_one_nodes_and_pods_file_in_the_page_fills_the_workload(client):
    client.post(reverse("new-scenario"))
    scenario = Scenario.objects.get()
    nodes, pods = yaml.safe_load(nodes_yaml(5)), yaml.safe_load(pods_yaml(20, 5))
    both = json.dumps({"apiVersion": "v1", "kind": "List", "items": nodes["items"] + pods["items"]})
    data = {"version": scenario.version, "nodes_file": SimpleUploadedFile("cluster.json", both.encode())}
    response = client.post(reverse("import-cluster", args=[scenario.slug]), data, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content[:500]
    scenario.refresh_from_db()
    assert scenario.nodes.count() == 5 and scenario.workload_yaml.count("\n") == 19  # pod 0 Succeeded
