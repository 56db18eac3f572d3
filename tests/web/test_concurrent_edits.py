"""Several editors change the same node at the same instant, through a real server: exactly one
edit wins, every other editor is told (409) and shown the current state, and once each retries on
that state, every edit is there: nothing lost, nothing applied twice."""

import re
import threading

import yaml

from tests.servers import DaphneServer, HttpClient, create_scenario

EDITORS = 8
SCENARIO = """\
apiVersion: playground/v1
kind: Scenario
title: "Shared node"
---
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def board_state(editor: HttpClient, path: str) -> tuple[int, int]:
    """(the version the page was rendered at, worker1's node id), as a form would post them."""
    page = editor.get(path)
    version = int(re.search(r'data-version="(\d+)"', page).group(1))
    node_id = int(re.search(r'data-node-name="worker1" data-node-id="(\d+)"', page).group(1))
    return version, node_id


def test_simultaneous_edits_of_one_node_one_wins_the_others_are_told_and_lose_nothing(
    live_server_process: DaphneServer,
):
    links = create_scenario(live_server_process.env, SCENARIO)
    editors = [HttpClient(live_server_process.url) for _ in range(EDITORS)]
    for editor in editors:
        editor.get(links["edit"])  # each claims the edit link (a cookie of its own)
    version, node_id = board_state(editors[0], links["view"])
    label_url = f"{links['view']}/nodes/{node_id}/label"

    start = threading.Barrier(EDITORS)
    answers: dict[int, tuple[int, str]] = {}

    def edit(index: int) -> None:
        start.wait()
        answers[index] = editors[index].submit(label_url, {"version": version, "key": f"editor{index}", "value": "a"})

    threads = [threading.Thread(target=edit, args=(index,)) for index in range(EDITORS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    statuses = sorted(status for status, _ in answers.values())
    assert statuses == [200] + [409] * (EDITORS - 1)
    winner = next(index for index, (status, _) in answers.items() if status == 200)
    for index, (status, body) in answers.items():
        if status == 409:  # told, and shown the board as it now is: the winner's label included
            assert f"now version {version + 1}" in body
            assert f"editor{winner}=a" in body and f"editor{index}=a" not in body

    # Each loser retries on the state it was shown, as a person would; contention continues.
    for index, (status, _) in answers.items():
        while status == 409:
            current, _ = board_state(editors[index], links["view"])
            status, _ = editors[index].submit(label_url, {"version": current, "key": f"editor{index}", "value": "a"})
        assert status == 200

    exported = list(yaml.safe_load_all(editors[0].get(f"{links['view']}/export.yaml")))
    node = next(document for document in exported if document and document.get("kind") == "Node")
    assert {key: value for key, value in node["metadata"]["labels"].items() if key.startswith("editor")} == {
        f"editor{index}": "a" for index in range(EDITORS)
    }
    assert board_state(editors[0], links["view"])[0] == version + EDITORS  # one version per edit
