"""PATCH bodies applied as the v1.34 API server applies them (scheduler_core.kubeapi.patches).

Upstream tables ported here (inputs and results restated as Python, descriptions reworded):
- kubernetes/apimachinery v0.34.0 (b72d93d174332f952a8d431419fece5e6f044bcb),
  pkg/util/strategicpatch/patch_test.go: the applying half of customStrategicMergePatchTestCaseData,
  customStrategicMergePatchRawTestCases, createStrategicMergePatchTestCaseData and
  strategicMergePatchRawTestCases (original + twoWay -> modified or twoWayResult; current +
  threeWay -> result), against upstream's MergeItem test struct. The raw tables compare list order
  exactly; the YAML tables did not, so their orders here are the ones upstream's code yields.
- evanphx/json-patch v4.12.0 (50fdc0b4c9ab36933e6a0c9288fef3ac5df2b907): merge_test.go
  (TestMergePatch*, rfcTests, rfcFailTests) and patch_test.go (Cases, MutationTestCases, BadCases,
  TestCases, the copy-size cases).
- kubectl's patches for cordon, set image, rollout restart, label, taint, scale, set resources.
"""

import copy
from typing import Any

import pytest

from scheduler_core.kubeapi import patches
from scheduler_core.kubeapi.patches import (
    FieldPatch,
    PatchError,
    json_merge_patch,
    json_patch,
    strategic_merge_patch,
)

Json = dict[str, Any]

MERGE = ("merge",)


def _merge_item(prefix: str = "", depth: int = 4) -> dict[str, FieldPatch]:
    """Upstream's MergeItem test struct as path tags; it nests in itself, four levels suffice."""
    if depth == 0:
        return {}
    tags = {
        f"{prefix}mergingList": FieldPatch(MERGE, "name"),
        f"{prefix}mergingIntList": FieldPatch(MERGE),
        f"{prefix}mergeItemPtr": FieldPatch(MERGE, "name"),
        f"{prefix}replacingItem": FieldPatch(("replace",)),
        f"{prefix}retainKeysMap": FieldPatch(("retainKeys",)),
        f"{prefix}retainKeysMap.mergingIntList": FieldPatch(MERGE),
        f"{prefix}retainKeysMap.mergingList": FieldPatch(MERGE, "name"),
        f"{prefix}retainKeysMergingList": FieldPatch(("merge", "retainKeys"), "name"),
    }
    for field in ("mergingList", "mergeItemPtr", "retainKeysMergingList", "retainKeysMap.mergingList"):
        tags |= _merge_item(f"{prefix}{field}.", depth - 1)
    return tags


@pytest.fixture(autouse=True)
def merge_item_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(patches.PATCH_METADATA, "MergeItem", _merge_item())


def smp(original: Json, patch: Any) -> Any:
    return strategic_merge_patch(original, patch, "MergeItem")


def names(*keys: Any) -> list[Json]:
    return [{"name": key} for key in keys]


# --- strategic merge patch: upstream's tables ------------------------------------------------

# (description, original or current, patch, expected)
CUSTOM_CASES = [  # customStrategicMergePatchTestCaseData
    (
        "merged scalars are unique",
        {"mergingIntList": [1, 2]},
        {"mergingIntList": [2, 3]},
        {"mergingIntList": [1, 2, 3]},
    ),
    (
        "$patch: delete empties a nested map",
        {"simpleMap": {"key1": 1, "key2": 1}},
        {"simpleMap": {"$patch": "delete"}},
        {"simpleMap": {}},
    ),
    (
        "a lone $patch: replace item empties a list",
        {"mergingList": names(1, 2)},
        {"mergingList": [{"$patch": "replace"}]},
        {"mergingList": []},
    ),
    ("empty merging lists merge", {"mergingList": []}, {"mergingList": []}, {"mergingList": []}),
    ("$patch: replace at the root empties it", {"name": 1, "value": 1}, {"$patch": "replace"}, {}),
    (
        "$patch: replace keeps the patch's own keys",
        {"name": 1, "value": 1},
        {"other": "a", "$patch": "replace"},
        {"other": "a"},
    ),
    (
        "deleting by merge key removes every duplicate",
        {"mergingList": [*names(1, 1), {"name": 2, "value": "a"}, *names(3, 3)]},
        {"mergingList": [{"name": 1, "$patch": "delete"}, {"name": 3, "$patch": "delete"}]},
        {"mergingList": [{"name": 2, "value": "a"}]},
    ),
    (
        "a retainKeys map without the directive adds a field",
        {"retainKeysMap": {"name": "foo"}},
        {"retainKeysMap": {"value": "bar"}},
        {"retainKeysMap": {"name": "foo", "value": "bar"}},
    ),
    (
        "a retainKeys map without the directive changes a field",
        {"retainKeysMap": {"name": "foo", "value": "a"}},
        {"retainKeysMap": {"value": "b"}},
        {"retainKeysMap": {"name": "foo", "value": "b"}},
    ),
    (
        "a retainKeys map without the directive deletes a field",
        {"retainKeysMap": {"name": "foo", "value": "a"}},
        {"retainKeysMap": {"value": None}},
        {"retainKeysMap": {"name": "foo"}},
    ),
    (
        "a retainKeys map merges an empty map",
        {"retainKeysMap": {"name": "foo", "value": "a"}},
        {"retainKeysMap": {}},
        {"retainKeysMap": {"name": "foo", "value": "a"}},
    ),
    (
        "a retainKeys list without the directive adds a field",
        {"retainKeysMergingList": names("bar", "foo")},
        {"retainKeysMergingList": [{"name": "foo", "value": "a"}]},
        {"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "a"}]},
    ),
    (
        "a retainKeys list without the directive deletes a field",
        {"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "a"}]},
        {"retainKeysMergingList": [{"name": "foo", "value": None}]},
        {"retainKeysMergingList": names("bar", "foo")},
    ),
    (
        "the patch's order wins for the items it names",
        {"mergingList": [{"name": 1}, {"name": 2, "value": "b"}, {"name": 3}]},
        {"mergingList": [{"name": 3, "value": "c"}, {"name": 1, "value": "a"}, {"name": 2, "other": "x"}]},
        {
            "mergingList": [
                {"name": 3, "value": "c"},
                {"name": 1, "value": "a"},
                {"name": 2, "value": "b", "other": "x"},
            ]
        },
    ),
    (
        "an item the patch leaves out keeps its live place",
        {"mergingList": [{"name": 1}, {"name": 2, "value": "b"}, {"name": 3}]},
        {"mergingList": [{"name": 3, "value": "c"}, {"name": 1, "value": "a"}]},
        {"mergingList": [{"name": 2, "value": "b"}, {"name": 3, "value": "c"}, {"name": 1, "value": "a"}]},
    ),
    (
        "the patch orders a merged int list",
        {"mergingIntList": [1, 2, 3]},
        {"mergingIntList": [3, 1, 2]},
        {"mergingIntList": [3, 1, 2]},
    ),
    (
        "an int the patch leaves out keeps its place",
        {"mergingIntList": [1, 2, 3]},
        {"mergingIntList": [3, 1]},
        {"mergingIntList": [2, 3, 1]},
    ),
]

CREATE_CASES = [  # createStrategicMergePatchTestCaseData, two-way then three-way applications
    ("fields add to an empty object", {}, {"name": 1, "value": 1}, {"name": 1, "value": 1}),
    ("fields add beside live ones", {"name": 1, "other": "a"}, {"value": 1}, {"name": 1, "value": 1, "other": "a"}),
    ("null deletes a field", {"name": 1}, {"name": None, "value": 1}, {"value": 1}),
    (
        "null deletes beside live fields",
        {"name": 1, "other": "a"},
        {"name": None, "value": 1},
        {"value": 1, "other": "a"},
    ),
    (
        "null deletes a nested map's key",
        {"simpleMap": {"key1": 1, "key2": 1, "other": "a"}},
        {"simpleMap": {"key2": None}},
        {"simpleMap": {"key1": 1, "other": "a"}},
    ),
    (
        "an untagged list is replaced",
        {"nonMergingIntList": [1, 4]},
        {"nonMergingIntList": [2, 3]},
        {"nonMergingIntList": [2, 3]},
    ),
    (
        "every map deleted from a merging list",
        {"mergingList": [{"name": 1, "other": "a"}, {"name": 2, "other": "b"}]},
        {"mergingList": [{"name": 1, "$patch": "delete"}, {"name": 2, "$patch": "delete"}]},
        {"mergingList": []},
    ),
    (
        "deleting from an empty merging list",
        {"mergingList": []},
        {"mergingList": [{"name": 1, "$patch": "delete"}, {"name": 2, "$patch": "delete"}]},
        {"mergingList": []},
    ),
    (
        "a null for a missing key is dropped",
        {"name": 2},
        {"name": 1, "value": 1, "other": None},
        {"name": 1, "value": 1},
    ),
    (
        "an empty patch leaves a retainKeys map alone",
        {"name": "a", "value": "b", "retainKeysMap": {"name": "foo"}},
        {},
        {"name": "a", "value": "b", "retainKeysMap": {"name": "foo"}},
    ),
]

RAW_CASES = [  # customStrategicMergePatchRawTestCases and strategicMergePatchRawTestCases
    (
        "$setElementOrder may name an item neither list has",
        {"mergingList": names(1, 3)},
        {
            "$setElementOrder/mergingList": names(3, 2, 1),
            "mergingList": [{"name": 3, "value": 3}, {"name": 1, "value": 1}],
        },
        {"mergingList": [{"name": 3, "value": 3}, {"name": 1, "value": 1}]},
    ),
    (
        "$setElementOrder alone reorders an int list",
        {"mergingIntList": [1, 3]},
        {"$setElementOrder/mergingIntList": [3, 2, 1]},
        {"mergingIntList": [3, 1]},
    ),
    (
        "deleting an absent primitive adds nothing",
        {"mergingIntList": [1, 2]},
        {"$deleteFromPrimitiveList/mergingIntList": [3]},
        {"mergingIntList": [1, 2]},
    ),
    (
        "deleting from a null list leaves it null",
        {"mergingIntList": None},
        {"$deleteFromPrimitiveList/mergingIntList": [3]},
        {"mergingIntList": None},
    ),
    (
        "deleting from a missing list creates none",
        {"foo": ["bar"]},
        {"$deleteFromPrimitiveList/mergingIntList": [3]},
        {"foo": ["bar"]},
    ),
    (
        "a deletion list on a merging list",
        {"mergingIntList": [1, 2, 3]},
        {"$deleteFromPrimitiveList/mergingIntList": [2]},
        {"mergingIntList": [1, 3]},
    ),
    (
        "a deletion list works on an untagged list too",
        {"nonMergingIntList": [1, 2, 3]},
        {"$deleteFromPrimitiveList/nonMergingIntList": [2]},
        {"nonMergingIntList": [1, 3]},
    ),
    (
        "a new list loses its $patch items (two-way)",
        {"name": "hi"},
        {"mergingList": [{"name": "hello"}, {"$patch": "delete", "name": "doesntexist"}]},
        {"name": "hi", "mergingList": [{"name": "hello"}]},
    ),
    (
        "a live-only item follows the ordered ones (three-way)",
        {"name": "hi", "mergingList": [{"name": "hello2"}]},
        {"$setElementOrder/mergingList": names("hello", "doesntexist"), "mergingList": [{"name": "hello"}]},
        {"name": "hi", "mergingList": names("hello", "hello2")},
    ),
    (
        "primitives deleted, live extras kept",
        {"mergingIntList": [1, 2, 3, 4]},
        {"$setElementOrder/mergingIntList": [1, 2], "$deleteFromPrimitiveList/mergingIntList": [3]},
        {"mergingIntList": [1, 2, 4]},
    ),
    (
        "primitives added and deleted",
        {"mergingIntList": [1, 2, 3]},
        {
            "$setElementOrder/mergingIntList": [1, 2, 4],
            "$deleteFromPrimitiveList/mergingIntList": [3],
            "mergingIntList": [4],
        },
        {"mergingIntList": [1, 2, 4]},
    ),
    (
        "maps added at the ends $setElementOrder gives",
        {"mergingList": [{"name": 1, "other": "a"}, {"name": 2, "value": 2, "other": "b"}]},
        {
            "$setElementOrder/mergingList": names(4, 1, 2, 3),
            "mergingList": [{"name": 4, "value": 4}, {"name": 3, "value": 3}],
        },
        {
            "mergingList": [
                {"name": 4, "value": 4},
                {"name": 1, "other": "a"},
                {"name": 2, "value": 2, "other": "b"},
                {"name": 3, "value": 3},
            ]
        },
    ),
    (
        "deleting a map the live list lacks",
        {"mergingList": [{"name": 2, "other": "b"}]},
        {"$setElementOrder/mergingList": names(2), "mergingList": [{"name": 1, "$patch": "delete"}]},
        {"mergingList": [{"name": 2, "other": "b"}]},
    ),
    (
        # Upstream deletes and appends in place, so its view of the live list it orders by reads
        # [2, 4, 3] afterwards: 4 comes before the new 3.
        "a map added and one deleted, beside a live-only map",
        {"mergingList": [{"name": 1}, {"name": 2, "other": "b"}, {"name": 4, "other": "c"}]},
        {"$setElementOrder/mergingList": names(2, 3), "mergingList": [{"name": 3}, {"name": 1, "$patch": "delete"}]},
        {"mergingList": [{"name": 2, "other": "b"}, {"name": 4, "other": "c"}, {"name": 3}]},
    ),
    (
        "an untagged list inside a merging list is replaced",
        {
            "mergingList": [
                {"name": 1, "other": "a", "nonMergingList": [{"name": 1}, {"name": 2, "value": 2}]},
                {"name": 2, "other": "b"},
            ]
        },
        {
            "$setElementOrder/mergingList": names(1, 2),
            "mergingList": [{"name": 1, "nonMergingList": [{"name": 1, "value": 1}]}],
        },
        {
            "mergingList": [
                {"name": 1, "other": "a", "nonMergingList": [{"name": 1, "value": 1}]},
                {"name": 2, "other": "b"},
            ]
        },
    ),
    (
        "a merging list inside a merging list merges",
        {
            "mergingList": [
                {"name": 1, "other": "a", "mergingList": [{"name": 1}, {"name": 2, "value": 2}]},
                {"name": 2, "other": "b"},
            ]
        },
        {
            "$setElementOrder/mergingList": names(1, 2),
            "mergingList": [
                {"$setElementOrder/mergingList": names(1, 2), "name": 1, "mergingList": [{"name": 1, "value": 1}]}
            ],
        },
        {
            "mergingList": [
                {"name": 1, "other": "a", "mergingList": [{"name": 1, "value": 1}, {"name": 2, "value": 2}]},
                {"name": 2, "other": "b"},
            ]
        },
    ),
    (
        "a map added through the pointer-typed list",
        {"mergeItemPtr": [{"name": 1, "other": "a"}, {"name": 3}]},
        {"$setElementOrder/mergeItemPtr": names(1, 2), "mergeItemPtr": names(2)},
        {"mergeItemPtr": [{"name": 1, "other": "a"}, {"name": 2}, {"name": 3}]},
    ),
    (
        "a scalar added before a live-only one",
        {"mergingIntList": [1, 2, 4]},
        {"$setElementOrder/mergingIntList": [1, 2, 3], "mergingIntList": [3]},
        {"mergingIntList": [1, 2, 3, 4]},
    ),
    (
        "a map added at the front",
        {"mergingList": [{"name": 1, "other": "a"}, {"name": 2, "value": 2, "other": "b"}]},
        {"$setElementOrder/mergingList": names(3, 1, 2), "mergingList": [{"name": 3, "value": 3}]},
        {"mergingList": [{"name": 3, "value": 3}, {"name": 1, "other": "a"}, {"name": 2, "value": 2, "other": "b"}]},
    ),
    (
        "reordering with a live-only map at the end",
        {
            "mergingList": [
                {"name": 1, "other": "a"},
                {"name": 3, "value": 3},
                {"name": 4, "value": 4},
                {"name": 2, "value": 2},
                {"name": 9},
            ]
        },
        {"$setElementOrder/mergingList": names(4, 2, 3, 1)},
        {
            "mergingList": [
                {"name": 4, "value": 4},
                {"name": 2, "value": 2},
                {"name": 3, "value": 3},
                {"name": 1, "other": "a"},
                {"name": 9},
            ]
        },
    ),
    (
        "reordering with a live-only map in the middle",
        {
            "mergingList": [
                {"name": 1, "other": "a"},
                {"name": 2, "value": 2},
                {"name": 9},
                {"name": 3, "value": 3},
                {"name": 4, "value": 4},
            ]
        },
        {"$setElementOrder/mergingList": names(2, 1, 4, 3)},
        {
            "mergingList": [
                {"name": 2, "value": 2},
                {"name": 1, "other": "a"},
                {"name": 9},
                {"name": 4, "value": 4},
                {"name": 3, "value": 3},
            ]
        },
    ),
    (
        "reordering with several live-only maps",
        {
            "mergingList": [
                {"name": 1, "other": "a"},
                {"name": 2, "value": 2},
                *names(7, 9, 8),
                {"name": 3, "value": 3},
                {"name": 4, "value": 4},
            ]
        },
        {"$setElementOrder/mergingList": names(2, 1, 4, 3)},
        {
            "mergingList": [
                {"name": 2, "value": 2},
                {"name": 1, "other": "a"},
                *names(7, 9, 8),
                {"name": 4, "value": 4},
                {"name": 3, "value": 3},
            ]
        },
    ),
    (
        "reordering an int list with a live-only int",
        {"mergingIntList": [1, 3, 4, 2, 9]},
        {"$setElementOrder/mergingIntList": [4, 2, 3, 1]},
        {"mergingIntList": [4, 2, 3, 1, 9]},
    ),
    (
        "duplicate merge keys stay together",
        {
            "mergingList": [
                {"name": 1},
                {"name": 2, "value": "dup1"},
                {"name": 3},
                {"name": 2, "value": "dup2"},
                {"name": 4},
            ]
        },
        {"$setElementOrder/mergingList": names(2, 1, 4, 3, 2)},
        {"mergingList": [{"name": 2, "value": "dup1"}, {"name": 2, "value": "dup2"}, *names(1, 4, 3)]},
    ),
    (
        "duplicate ints stay together",
        {"mergingIntList": [1, 2, 3, 2, 4]},
        {"$setElementOrder/mergingIntList": [2, 1, 4, 3, 2]},
        {"mergingIntList": [2, 2, 1, 4, 3]},
    ),
    (
        "$retainKeys clears a defaulted field",
        {"retainKeysMap": {"value": "foo"}},
        {"retainKeysMap": {"$retainKeys": ["other"], "other": "bar"}},
        {"retainKeysMap": {"other": "bar"}},
    ),
    (
        "$retainKeys adds one field and clears another",
        {"retainKeysMap": {"name": "foo", "other": "a"}},
        {"retainKeysMap": {"$retainKeys": ["name", "value"], "value": "bar"}},
        {"retainKeysMap": {"name": "foo", "value": "bar"}},
    ),
    (
        "$retainKeys beside a deletion list in a nested int list",
        {"retainKeysMap": {"name": "foo", "mergingIntList": [1, 2, 3, 4]}},
        {
            "retainKeysMap": {
                "$retainKeys": ["mergingIntList", "name"],
                "$deleteFromPrimitiveList/mergingIntList": [2],
                "$setElementOrder/mergingIntList": [1, 3],
            }
        },
        {"retainKeysMap": {"name": "foo", "mergingIntList": [1, 3, 4]}},
    ),
    (
        "$retainKeys in one item of a merging list",
        {"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "a", "other": "x"}]},
        {
            "$setElementOrder/retainKeysMergingList": names("bar", "foo"),
            "retainKeysMergingList": [{"$retainKeys": ["name", "value"], "name": "foo"}],
        },
        {"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "a"}]},
    ),
    (
        "a deletion in one list, a reorder in another",
        {
            "mergingList": [{"name": "a", "value": "a"}, {"name": "b", "value": "b"}],
            "mergeItemPtr": [{"name": "c", "value": "c"}, {"name": "d", "value": "d"}],
        },
        {
            "$setElementOrder/mergingList": names("b"),
            "$setElementOrder/mergeItemPtr": names("d", "c"),
            "mergingList": [{"$patch": "delete", "name": "a"}],
        },
        {
            "mergingList": [{"name": "b", "value": "b"}],
            "mergeItemPtr": [{"name": "d", "value": "d"}, {"name": "c", "value": "c"}],
        },
    ),
]


@pytest.mark.parametrize(
    ("original", "patch", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in CUSTOM_CASES + CREATE_CASES + RAW_CASES],
)
def test_upstream_strategic_merge_tables(original: Json, patch: Json, expected: Json) -> None:
    assert smp(original, patch) == expected


def _raises(code: int, call: Any, *args: Any) -> PatchError:
    with pytest.raises(PatchError) as caught:
        call(*args)
    assert caught.value.code == code
    return caught.value


def test_set_element_order_must_agree_with_the_patch_list() -> None:
    error = _raises(
        500,
        smp,
        {"mergingList": names(1, 3, 2)},
        {
            "$setElementOrder/mergingList": names(1, 2, 3),
            "mergingList": [{"name": 3, "value": 3}, {"name": 1, "value": 1}],
        },
    )
    assert str(error) == (
        "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n"
        " doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n"
    )
    ints = _raises(
        500,
        smp,
        {"mergingIntList": [1, 3, 2]},
        {"$setElementOrder/mergingIntList": [1, 2, 3], "mergingIntList": [3, 1]},
    )
    assert "doesn't match $setElementOrder list:\n[1 2 3]" in str(ints)


def test_a_list_item_needs_its_merge_key() -> None:
    error = _raises(500, smp, {"mergingList": [{"name": 1, "value": "a"}]}, {"mergingList": [{"value": "b"}]})
    assert str(error) == "map: map[value:b] does not contain declared merge key: name"
    assert error.reason == ""  # passed on unwrapped: kubectl prints "Error from server: map: ..."
    floats = _raises(500, smp, {"mergingList": names(1)}, {"mergingList": [{"value": 1e6, "other": 0.5}]})
    assert str(floats) == "map: map[other:0.5 value:1e+06] does not contain declared merge key: name"


@pytest.mark.parametrize(
    ("original", "patch", "code", "message"),
    [
        pytest.param(
            {"mergingList": names(1)},
            {"mergingList": [{"name": 1, "$patch": "merge"}]},
            500,
            "merging lists cannot yet be specified in the patch",
            id="list-merge-directive",
        ),
        pytest.param(
            {"mergingList": names(1)},
            {"mergingList": [{"name": 1, "$patch": "nope"}]},
            500,
            "unknown patch type: nope in map: map[$patch:nope name:1]",
            id="list-unknown-directive",
        ),
        pytest.param(
            {"simpleMap": {"a": "1"}},
            {"simpleMap": {"$patch": "merge", "b": "2"}},
            500,
            "unknown patch type: merge in map: map[$patch:merge b:2]",
            id="map-merge-directive",
        ),
        pytest.param(
            {"mergingList": [{"name": 1}]},
            {"mergingList": [{"$patch": "delete"}]},
            500,
            "map: map[$patch:delete] does not contain declared merge key: name",
            id="delete-without-key",
        ),
        pytest.param(
            {"retainKeysMap": {"name": "a"}},
            {"retainKeysMap": {"$retainKeys": "name"}},
            400,
            "invalid patch format of retainKeys",
            id="retain-keys-not-a-list",
        ),
        pytest.param(
            {"retainKeysMap": {"name": "a"}},
            {"retainKeysMap": {"$retainKeys": ["name"], "value": "b"}},
            400,
            "invalid patch format of retainKeys",
            id="patch-outside-retain-keys",
        ),
        pytest.param(
            {"mergingIntList": [1]},
            {"$setElementOrder": [1]},
            400,
            "invalid patch format of setElementOrder list",
            id="order-key-without-field",
        ),
        pytest.param(
            {"mergingIntList": [1]},
            {"$deleteFromPrimitiveListX/mergingIntList": [1]},
            400,
            "invalid patch format of primitive list",
            id="deletion-key-misspelt",
        ),
        pytest.param(
            {"mergingIntList": [1]},
            {"$setElementOrder/mergingIntList": "1"},
            500,
            "expected a []interface {}, but received a string",
            id="order-not-a-list",
        ),
        pytest.param(
            {"mergingIntList": [1]},
            {"mergingIntList": ["a"]},
            500,
            "list element types are not identical: [[1] [a]]",
            id="mixed-element-types",
        ),
        pytest.param(
            {"mergingIntList": [1]},
            ["not", "a", "map"],
            400,
            "json: cannot unmarshal array into Go value of type map[string]interface {}",
            id="patch-not-an-object",
        ),
    ],
)
def test_strategic_merge_errors(original: Json, patch: Any, code: int, message: str) -> None:
    assert str(_raises(code, smp, original, patch)) == message


def test_a_list_of_lists_is_unprocessable() -> None:
    error = _raises(422, smp, {"mergingIntList": [[1]]}, {"mergingIntList": [[2]]})
    assert str(error) == "the server rejected our request due to an error in our request"
    assert (error.reason, error.detail) == ("Invalid", "lists of lists are not supported")


def test_a_null_patch_changes_nothing() -> None:
    assert smp({"name": 1}, None) == {"name": 1}


# --- strategic merge patch: real kinds and what kubectl sends --------------------------------

NGINX = {"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80, "protocol": "TCP"}]}


def deployment(*containers: Json) -> Json:
    template = {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": list(containers)}}
    strategy = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"replicas": 3, "strategy": strategy, "template": template},
    }


def containers_of(obj: Json) -> list[Json]:
    containers: list[Json] = obj["spec"]["template"]["spec"]["containers"]
    return containers


def node(**spec: Any) -> Json:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "worker1"},
        "spec": {"podCIDR": "10.244.1.0/24", **spec},
    }


def test_kubectl_cordon_and_uncordon() -> None:
    cordoned = strategic_merge_patch(node(), {"spec": {"unschedulable": True}}, "Node")
    assert cordoned["spec"] == {"podCIDR": "10.244.1.0/24", "unschedulable": True}
    assert strategic_merge_patch(cordoned, {"spec": {"unschedulable": None}}, "Node") == node()


def test_kubectl_set_image_merges_the_container_by_name() -> None:
    sidecar = {"name": "log", "image": "busybox:1.36"}
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "$setElementOrder/containers": [{"name": "nginx"}],
                    "containers": [{"image": "nginx:1.28", "name": "nginx"}],
                }
            }
        }
    }
    result = strategic_merge_patch(deployment(NGINX), patch, "Deployment")
    assert containers_of(result) == [{**NGINX, "image": "nginx:1.28"}]
    two = {
        "spec": {
            "template": {
                "spec": {
                    "$setElementOrder/containers": names("nginx", "log"),
                    "containers": [{"image": "busybox:1.37", "name": "log"}],
                }
            }
        }
    }
    assert containers_of(strategic_merge_patch(deployment(NGINX, sidecar), two, "Deployment")) == [
        NGINX,
        {**sidecar, "image": "busybox:1.37"},
    ]


def test_kubectl_rollout_restart_annotates_the_template() -> None:
    stamp = "2025-06-01T12:00:00Z"
    patch = {"spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": stamp}}}}}
    result = strategic_merge_patch(deployment(NGINX), patch, "Deployment")
    assert result["spec"]["template"]["metadata"] == {
        "labels": {"app": "web"},
        "annotations": {"kubectl.kubernetes.io/restartedAt": stamp},
    }
    assert containers_of(result) == [NGINX]


def test_kubectl_label_sends_a_merge_patch() -> None:
    pod = {"kind": "Pod", "metadata": {"name": "web-0", "labels": {"app": "web"}}, "spec": {"containers": [NGINX]}}
    labelled = json_merge_patch(pod, {"metadata": {"labels": {"tier": "frontend"}}})
    assert labelled["metadata"]["labels"] == {"app": "web", "tier": "frontend"}
    assert json_merge_patch(labelled, {"metadata": {"labels": {"tier": None}}}) == pod  # kubectl label pod web-0 tier-


def test_kubectl_taint_sends_the_whole_list_which_replaces() -> None:
    old = {"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}
    new = {"key": "maintenance", "effect": "NoExecute", "timeAdded": "2025-06-01T12:00:00Z"}
    tainted = strategic_merge_patch(node(taints=[old]), {"spec": {"taints": [old, new]}}, "Node")
    assert tainted["spec"]["taints"] == [old, new]
    # NodeSpec.taints has no patchStrategy tag: the list sent is the list kept.
    assert strategic_merge_patch(tainted, {"spec": {"taints": [new]}}, "Node")["spec"]["taints"] == [new]
    assert strategic_merge_patch(tainted, {"spec": {"taints": None}}, "Node") == node()


def test_kubectl_scale_sends_a_merge_patch() -> None:
    assert json_merge_patch(deployment(NGINX), {"spec": {"replicas": 2}})["spec"]["replicas"] == 2


def test_kubectl_set_resources_merges_into_the_container() -> None:
    live = {**NGINX, "resources": {"requests": {"cpu": "100m"}}}
    limits = {"cpu": "200m", "memory": "512Mi"}
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "$setElementOrder/containers": names("nginx"),
                    "containers": [{"name": "nginx", "resources": {"limits": limits}}],
                }
            }
        }
    }
    result = strategic_merge_patch(deployment(live), patch, "Deployment")
    assert containers_of(result) == [{**NGINX, "resources": {"requests": {"cpu": "100m"}, "limits": limits}}]


def test_pod_spec_lists_follow_their_tags() -> None:
    zone = {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule"}
    host = {**zone, "topologyKey": "kubernetes.io/hostname"}
    toleration = {"key": "dedicated", "operator": "Exists"}
    pod = {
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {"containers": [NGINX], "topologySpreadConstraints": [zone], "tolerations": [toleration]},
    }
    patch = {
        "spec": {"topologySpreadConstraints": [host, {**zone, "maxSkew": 2}], "tolerations": [{"operator": "Exists"}]}
    }
    spec = strategic_merge_patch(pod, patch, "Pod")["spec"]
    assert spec["topologySpreadConstraints"] == [host, {**zone, "maxSkew": 2}]  # merged by topologyKey
    assert spec["tolerations"] == [{"operator": "Exists"}]  # untagged: replaced


def test_container_lists_merge_by_their_keys_in_a_cronjob() -> None:
    container = {
        **NGINX,
        "env": [{"name": "A", "value": "1"}],
        "volumeMounts": [{"name": "data", "mountPath": "/data"}],
    }
    job_spec = {"template": {"spec": {"containers": [container]}}}
    cronjob = {
        "kind": "CronJob",
        "metadata": {"name": "c"},
        "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": job_spec}},
    }
    patched_container = {
        "name": "nginx",
        "env": [{"name": "B", "value": "2"}],
        "ports": [{"containerPort": 443}],
        "volumeMounts": [{"name": "cache", "mountPath": "/cache"}],
    }
    patch = {"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [patched_container]}}}}}}
    result = strategic_merge_patch(cronjob, patch, "CronJob")
    assert result["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"] == [
        {
            "name": "nginx",
            "image": "nginx:1.27",
            # Without $setElementOrder an item the live list lacks goes before the live ones.
            "ports": [{"containerPort": 443}, {"containerPort": 80, "protocol": "TCP"}],
            "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "1"}],
            "volumeMounts": [{"name": "cache", "mountPath": "/cache"}, {"name": "data", "mountPath": "/data"}],
        }
    ]


def test_retain_keys_switches_a_volume_source_and_a_deployment_strategy() -> None:
    pod = {
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {"containers": [NGINX], "volumes": [{"name": "data", "emptyDir": {}}]},
    }
    volume_patch = {
        "spec": {"volumes": [{"$retainKeys": ["configMap", "name"], "name": "data", "configMap": {"name": "cfg"}}]}
    }
    assert strategic_merge_patch(pod, volume_patch, "Pod")["spec"]["volumes"] == [
        {"name": "data", "configMap": {"name": "cfg"}}
    ]
    recreate = {"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}
    assert strategic_merge_patch(deployment(NGINX), recreate, "Deployment")["spec"]["strategy"] == {"type": "Recreate"}


def test_daemonset_update_strategy_has_no_retain_keys_tag() -> None:
    rolling = {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}
    daemonset = {"kind": "DaemonSet", "metadata": {"name": "d"}, "spec": {"updateStrategy": rolling}}
    result = strategic_merge_patch(daemonset, {"spec": {"updateStrategy": {"type": "OnDelete"}}}, "DaemonSet")
    assert result["spec"]["updateStrategy"] == {"type": "OnDelete", "rollingUpdate": {"maxUnavailable": 1}}


def test_object_meta_owner_references_and_finalizers() -> None:
    owner = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "u1"}
    meta = {"name": "web-1-x", "ownerReferences": [owner], "finalizers": ["a/one", "a/two"]}
    patch = {
        "metadata": {
            "ownerReferences": [{"uid": "u1", "controller": True}, {"uid": "u2", "kind": "Job", "name": "j"}],
            "$deleteFromPrimitiveList/finalizers": ["a/one"],
            "finalizers": ["a/three"],
        }
    }
    result = strategic_merge_patch({"kind": "Pod", "metadata": meta}, patch, "Pod")["metadata"]
    assert result["ownerReferences"] == [{**owner, "controller": True}, {"uid": "u2", "kind": "Job", "name": "j"}]
    assert result["finalizers"] == ["a/three", "a/two"]  # new first: no $setElementOrder


def test_service_ports_merge_by_port_and_node_status_by_type() -> None:
    service = {"kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": 80, "targetPort": 8080}]}}
    ports = strategic_merge_patch(
        service, {"spec": {"ports": [{"port": 80, "name": "http"}, {"port": 443}]}}, "Service"
    )["spec"]["ports"]
    assert ports == [{"port": 80, "targetPort": 8080, "name": "http"}, {"port": 443}]
    ready = {"type": "Ready", "status": "True"}
    live = {
        **node(),
        "status": {
            "conditions": [{"type": "MemoryPressure", "status": "False"}, ready],
            "addresses": [{"type": "InternalIP", "address": "10.0.0.1"}],
        },
    }
    patch = {
        "status": {
            "conditions": [{"type": "Ready", "status": "False"}],
            "addresses": [{"type": "Hostname", "address": "worker1"}],
        }
    }
    status = strategic_merge_patch(live, patch, "Node")["status"]
    assert status["conditions"] == [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "False"}]
    assert status["addresses"] == [
        {"type": "Hostname", "address": "worker1"},
        {"type": "InternalIP", "address": "10.0.0.1"},
    ]


def test_pdb_selector_is_replaced_whole() -> None:
    selector = {"matchLabels": {"app": "a"}, "matchExpressions": [{"key": "tier", "operator": "Exists"}]}
    pdb = {"kind": "PodDisruptionBudget", "metadata": {"name": "p"}, "spec": {"minAvailable": 1, "selector": selector}}
    result = strategic_merge_patch(pdb, {"spec": {"selector": {"matchLabels": {"app": "b"}}}}, "PodDisruptionBudget")
    assert result["spec"] == {"minAvailable": 1, "selector": {"matchLabels": {"app": "b"}}}


def test_an_unknown_kind_merges_maps_replaces_lists_and_knows_object_meta() -> None:
    widget = {
        "kind": "Widget",
        "metadata": {"name": "w", "finalizers": ["x"]},
        "spec": {"items": [1, 2], "opts": {"a": 1}},
    }
    patch = {"metadata": {"finalizers": ["y"]}, "spec": {"items": [3], "opts": {"b": 2}}}
    assert strategic_merge_patch(widget, patch, "Widget") == {
        "kind": "Widget",
        "metadata": {"name": "w", "finalizers": ["y", "x"]},
        "spec": {"items": [3], "opts": {"a": 1, "b": 2}},
    }


def test_a_container_without_name_is_a_bare_server_error() -> None:
    error = _raises(
        500,
        strategic_merge_patch,
        deployment(NGINX),
        {"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}},
        "Deployment",
    )
    assert str(error) == "map: map[image:x] does not contain declared merge key: name"


def test_the_tag_table_matches_upstream_on_fields_easy_to_get_wrong() -> None:
    pod, nodes = patches.PATCH_METADATA["Pod"], patches.PATCH_METADATA["Node"]
    assert pod["spec.topologySpreadConstraints"] == FieldPatch(MERGE, "topologyKey")
    assert pod["spec.volumes"] == FieldPatch(("merge", "retainKeys"), "name")
    assert pod["spec.containers.volumeDevices"] == FieldPatch(MERGE, "devicePath")
    assert pod["metadata.ownerReferences"] == FieldPatch(MERGE, "uid")
    untagged = ["spec.tolerations", "spec.readinessGates", "spec.containers.resizePolicy"]
    assert not any(path in pod for path in untagged)
    assert "spec.taints" not in nodes and nodes["status.addresses"] == FieldPatch(MERGE, "type")
    assert patches.PATCH_METADATA["CronJob"]["spec.jobTemplate.spec.template.spec.containers.env"] == FieldPatch(
        MERGE, "name"
    )
    assert patches.PATCH_METADATA["Deployment"]["spec.strategy"].strategy == ""


# --- JSON patch (evanphx/json-patch v4.12.0, as the API server uses it) ----------------------

JSON_PATCH_CASES = [  # patch_test.go Cases
    ({"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}], {"baz": "qux", "foo": "bar"}),
    ({"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/1", "value": "qux"}], {"foo": ["bar", "qux", "baz"]}),
    ({"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/-1", "value": "qux"}], {"foo": ["bar", "baz", "qux"]}),
    ({"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
    ({"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}], {"foo": ["bar", "baz"]}),
    ({"baz": "qux", "foo": "bar"}, [{"op": "replace", "path": "/baz", "value": "boo"}], {"baz": "boo", "foo": "bar"}),
    (
        {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
        [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
        {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}},
    ),
    (
        {"foo": ["all", "grass", "cows", "eat"]},
        [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
        {"foo": ["all", "cows", "eat", "grass"]},
    ),
    (
        {"foo": ["all", "grass", "cows", "eat"]},
        [{"op": "move", "from": "/foo/1", "path": "/foo/2"}],
        {"foo": ["all", "cows", "grass", "eat"]},
    ),
    (
        {"foo": "bar"},
        [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
        {"foo": "bar", "child": {"grandchild": {}}},
    ),
    ({"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}], {"foo": ["bar", ["abc", "def"]]}),
    (
        {"foo": "bar", "qux": {"baz": 1, "bar": None}},
        [{"op": "remove", "path": "/qux/bar"}],
        {"foo": "bar", "qux": {"baz": 1}},
    ),
    ({"foo": "bar"}, [{"op": "add", "path": "/baz", "value": None}], {"baz": None, "foo": "bar"}),
    ({"foo": ["bar", "baz"]}, [{"op": "replace", "path": "/foo/0", "value": "bum"}], {"foo": ["bum", "baz"]}),
    (
        {"foo": ["bar", "qux", "baz"]},
        [{"op": "replace", "path": "/foo/1", "value": "bum"}],
        {"foo": ["bar", "bum", "baz"]},
    ),
    (
        [{"foo": ["bar", "qux", "baz"]}],
        [{"op": "replace", "path": "/0/foo/0", "value": "bum"}],
        [{"foo": ["bum", "qux", "baz"]}],
    ),
    ({"foo": ["bar"]}, [{"op": "copy", "path": "/foo/0", "from": "/foo"}], {"foo": [["bar"], "bar"]}),
    ({"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/-2"}], {"foo": ["bar", "baz"]}),
    ({"foo": []}, [{"op": "add", "path": "/foo/-1", "value": "qux"}], {"foo": ["qux"]}),
    ({"bar": [{"baz": None}]}, [{"op": "replace", "path": "/bar/0/baz", "value": 1}], {"bar": [{"baz": 1}]}),
    ({"bar": [{"baz": 1}]}, [{"op": "replace", "path": "/bar/0/baz", "value": None}], {"bar": [{"baz": None}]}),
    ({"bar": [None]}, [{"op": "replace", "path": "/bar/0", "value": 1}], {"bar": [1]}),
    ({"bar": [1]}, [{"op": "replace", "path": "/bar/0", "value": None}], {"bar": [None]}),
    (
        {"id": "0", "parentID": "0"},
        [
            {"op": "test", "path": "", "value": {"id": "0", "parentID": "0"}},
            {"op": "replace", "path": "", "value": {"id": "7", "originalID": "bar"}},
        ],
        {"id": "7", "originalID": "bar"},
    ),
    # v4 specifics the API server keeps (v5 would differ): replace adds a missing key
    ({"a": 1}, [{"op": "replace", "path": "/b", "value": 2}], {"a": 1, "b": 2}),
    ({"a": 1}, [{"op": "replace", "path": "", "value": "scalar"}], {"a": 1}),
    ({"a/b": {"c~d": 1}}, [{"op": "add", "path": "/a~1b/e~0f", "value": 2}], {"a/b": {"c~d": 1, "e~f": 2}}),
]


@pytest.mark.parametrize(("original", "operations", "expected"), JSON_PATCH_CASES)
def test_json_patch_cases(original: Any, operations: list[Json], expected: Any) -> None:
    assert json_patch(original, operations) == expected


JSON_PATCH_FAILURES = [  # patch_test.go BadCases, with the library's words kept as `detail`
    (
        {"foo": "bar"},
        [{"op": "add", "path": "/baz/bat", "value": "qux"}],
        'add operation does not apply: doc is missing path: "/baz/bat": missing value',
    ),
    (
        {"a": {"b": {"d": 1}}},
        [{"op": "remove", "path": "/a/b/c"}],
        "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value",
    ),
    (
        {"a": {"b": {"d": 1}}},
        [{"op": "move", "from": "/a/b/c", "path": "/a/b/e"}],
        "error in move for path: 'c': Unable to remove nonexistent key: c: missing value",
    ),
    (
        {"a": {"b": [1]}},
        [{"op": "remove", "path": "/a/b/1"}],
        "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced",
    ),
    (
        {"a": {"b": [1]}},
        [{"op": "move", "from": "/a/b/1", "path": "/a/b/2"}],
        "error in move for path: '1': Unable to access invalid index: 1: invalid index referenced",
    ),
    (
        {"foo": "bar"},
        [{"op": "add", "pathz": "/baz", "value": "qux"}],
        "add operation failed to decode path: missing value",
    ),
    (
        {"foo": "bar"},
        [{"op": "add", "path": "", "value": "qux"}],
        'add operation does not apply: doc is missing path: "": missing value',
    ),
    (
        {"foo": ["bar", "baz"]},
        [{"op": "replace", "path": "/foo/2", "value": "bum"}],
        "replace operation does not apply: doc is missing key: /foo/2: missing value",
    ),
    (
        {"foo": ["bar", "baz"]},
        [{"op": "add", "path": "/foo/-4", "value": "bum"}],
        "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced",
    ),
    (
        {"name": {"foo": "bat"}},
        [{"op": "replace", "path": "/foo/bar", "value": "baz"}],
        "replace operation does not apply: doc is missing path: /foo/bar: missing value",
    ),
    (
        {"foo": ["bar"]},
        [{"op": "add", "path": "/foo/2", "value": "bum"}],
        "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced",
    ),
    (
        {"foo": []},
        [{"op": "remove", "path": "/foo/-"}],
        "error in remove for path: '/foo/-': strconv.Atoi: parsing \"-\": invalid syntax",
    ),
    (
        {"foo": []},
        [{"op": "remove", "path": "/foo/-1"}],
        "error in remove for path: '/foo/-1': Unable to access invalid index: -1: invalid index referenced",
    ),
    (
        {"foo": ["bar"]},
        [{"op": "remove", "path": "/foo/-2"}],
        "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index referenced",
    ),
    ({}, [{"op": None, "path": ""}], "Unexpected kind: unknown"),
    ({}, [{"op": "add", "path": None}], "add operation failed to decode path: missing value"),
    (
        {},
        [{"op": "copy", "from": None}],
        "copy operation failed to decode from: operation, missing from field: missing value",
    ),
    (
        {"foo": ["bar"]},
        [{"op": "copy", "path": "/foo/6666666666", "from": "/"}],
        "error while adding value during copy: Unable to access invalid index: 6666666666: invalid index referenced",
    ),
    (
        {"foo": ["bar"]},
        [{"op": "copy", "path": "/foo/2", "from": "/foo/0"}],
        "error while adding value during copy: Unable to access invalid index: 2: invalid index referenced",
    ),
    (
        {"foo": ["all", "grass", "cows", "eat"]},
        [{"op": "move", "from": "/foo/1", "path": "/foo/4"}],
        "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced",
    ),
    (
        {"foo": [1]},
        [{"op": "add", "path": "/foo/x", "value": 2}],
        "error in add for path: '/foo/x': value was not a proper array index: 'x': "
        'strconv.Atoi: parsing "x": invalid syntax',
    ),
    (
        {},
        [{"op": "replace", "path": 5}],
        "replace operation failed to decode path: json: cannot unmarshal number into Go value of type string",
    ),
    ({}, [{"op": "frobnicate", "path": "/a"}], "Unexpected kind: frobnicate"),
    # patch_test.go TestCases: a failed test names its path
    ({"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}], "testing value /baz failed: test failed"),
    (
        {"baz": "qux", "foo": ["a", 2, "c"]},
        [{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": "c"}],
        "testing value /foo/1 failed: test failed",
    ),
    ({"baz": "qux"}, [{"op": "test", "path": "/foo", "value": 42}], "testing value /foo failed: test failed"),
    ({"foo": {}}, [{"op": "test", "path": "/foo", "value": None}], "testing value /foo failed: test failed"),
    ({"foo": []}, [{"op": "test", "path": "/foo", "value": None}], "testing value /foo failed: test failed"),
    ({"foo": []}, [{"op": "test", "path": "/foo"}], "testing value /foo failed: test failed"),
    ({"foo": 1}, [{"op": "test", "path": "/foo", "value": 1.0}], "testing value /foo failed: test failed"),
    (
        {"foo": [1]},
        [{"op": "test", "path": "/foo/3", "value": 1}],
        "error in test for path: '/foo/3': Unable to access invalid index: 3: invalid index referenced",
    ),
    (
        {"foo": 1},
        [{"op": "test", "path": "/a/b", "value": 1}],
        "test operation does not apply: is missing path: /a/b: missing value",
    ),
]


@pytest.mark.parametrize(("original", "operations", "detail"), JSON_PATCH_FAILURES)
def test_json_patch_failures_are_unprocessable(original: Json, operations: list[Json], detail: str) -> None:
    error = _raises(422, json_patch, original, operations)
    assert str(error) == "the server rejected our request due to an error in our request"
    assert (error.reason, error.detail) == ("Invalid", detail)


@pytest.mark.parametrize(
    ("original", "operations"),
    [
        (
            {"baz": "qux", "foo": ["a", 2, "c"]},
            [{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}],
        ),
        ({"baz": "qux"}, [{"op": "test", "path": "/foo", "value": None}]),  # missing reads as null
        ({"foo": None}, [{"op": "test", "path": "/foo", "value": None}]),
        ({"baz/foo": "qux"}, [{"op": "test", "path": "/baz~1foo", "value": "qux"}]),
        ({"a": {"x": [1, {"y": True}]}}, [{"op": "test", "path": "/a", "value": {"x": [1, {"y": True}]}}]),
    ],
)
def test_json_patch_tests_that_pass(original: Json, operations: list[Json]) -> None:
    assert json_patch(original, operations) == original


def test_json_patch_mutation_cases_change_the_document() -> None:
    doc = {"foo": "bar", "qux": {"baz": 1, "bar": None}}
    assert json_patch(doc, [{"op": "remove", "path": "/qux/bar"}]) != doc
    assert json_patch(doc, [{"op": "replace", "path": "/qux/baz", "value": None}]) != doc


def test_json_patch_copies_count_against_the_copy_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patches, "JSON_PATCH_MAX_COPY_BYTES", 100)
    twice = [{"op": "copy", "path": "/foo/-", "from": "/foo/1"}] * 2
    assert json_patch({"foo": ["A", "A" * 48]}, twice) == {"foo": ["A", *["A" * 48] * 3]}  # 2 x 50 bytes
    error = _raises(422, json_patch, {"foo": ["A", "A" * 49]}, twice)
    assert (
        error.detail
        == "Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100"
    )


def test_json_patch_decoding_errors_are_bad_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    assert (
        str(_raises(400, json_patch, {}, {"op": "add"}))
        == "json: cannot unmarshal object into Go value of type jsonpatch.Patch"
    )
    assert (
        str(_raises(400, json_patch, {}, ["add"]))
        == "json: cannot unmarshal string into Go value of type jsonpatch.Operation"
    )
    assert json_patch({"a": 1}, None) == {"a": 1}
    monkeypatch.setattr(patches, "JSON_PATCH_MAX_OPERATIONS", 2)
    error = _raises(413, json_patch, {}, [{"op": "test", "path": "", "value": {}}] * 3)
    assert (str(error), error.reason) == (
        "Request entity too large: The allowed maximum operations in a JSON patch is 2, got 3",
        "RequestEntityTooLarge",
    )


# --- JSON merge patch (RFC 7386, evanphx/json-patch v4.12.0 MergePatch) ----------------------

MERGE_PATCH_CASES = [
    # merge_test.go TestMergePatch*
    ({"title": "hello"}, {"title": "goodbye"}, {"title": "goodbye"}),
    ({"title": "hello", "age": 18}, {"title": "goodbye"}, {"title": "goodbye", "age": 18}),
    ({"title": None}, {"title": {"foo": "bar"}}, {"title": {"foo": "bar"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    ({"a": [{"b": "c"}]}, {"a": [None, 1]}, {"a": [None, 1]}),
    (["a", None], [None], [None]),
    ({"a": ["b"]}, {"a": ["b", None]}, {"a": ["b", None]}),
    ({"a": []}, {"a": ["b", None, None, "a"]}, {"a": ["b", None, None, "a"]}),
    (
        {"person": {"title": "hello", "age": 18}},
        {"person": {"title": "goodbye"}},
        {"person": {"title": "goodbye", "age": 18}},
    ),
    ([1], [2], [2]),
    ({"a": 1}, [2], [2]),
    ([1], {"a": 1}, {"a": 1}),
    ({"a": 1, "b": 1}, {"a": 2}, {"a": 2, "b": 1}),
    ({"array": ["one", "two"]}, {"array": []}, {"array": []}),
    # rfcTests: RFC 7386 appendix A, and the library's additions
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"e": None}, {"a": 1}, {"a": 1, "e": None}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
    # v4 prunes nulls from objects inside a new array, but not from an array replacing an object
    ({}, {"a": [{"b": None, "c": 1}]}, {"a": [{"c": 1}]}),
    ({"a": {"x": 1}}, {"a": [{"b": None}]}, {"a": [{"b": None}]}),
]


@pytest.mark.parametrize(("original", "patch", "expected"), MERGE_PATCH_CASES)
def test_json_merge_patch_cases(original: Any, patch: Any, expected: Any) -> None:
    assert json_merge_patch(original, patch) == expected


@pytest.mark.parametrize("patch", [None, "bar", 3, True])
def test_json_merge_patch_needs_an_object_or_array(patch: Any) -> None:  # rfcFailTests
    error = _raises(400, json_merge_patch, {"a": "foo"}, patch)
    assert (str(error), error.reason) == ("Invalid JSON Patch", "BadRequest")


# --- none of them mutates its inputs ---------------------------------------------------------


def smp_case(description: str) -> tuple[Json, Json]:
    """The input of a strategic-merge table case, by its description."""
    found = [case for case in CUSTOM_CASES + CREATE_CASES + RAW_CASES if case[0] == description]
    return found[0][1], found[0][2]


@pytest.mark.parametrize(
    ("call", "args"),
    [
        (smp, smp_case("a map added and one deleted, beside a live-only map")),  # in place upstream
        (smp, smp_case("deleting by merge key removes every duplicate")),
        (smp, smp_case("$retainKeys beside a deletion list in a nested int list")),
        (smp, smp_case("a lone $patch: replace item empties a list")),
        (smp, ({}, {"a": {"b": None, "c": [{"$patch": "delete"}, {"d": None}]}})),
        (
            json_patch,
            (
                {"a": [1]},
                [
                    {"op": "add", "path": "/b", "value": {"c": 1}},
                    {"op": "add", "path": "/b/d", "value": 2},
                    {"op": "move", "from": "/a", "path": "/e"},
                ],
            ),
        ),
        (
            json_patch,
            ({"a": {"b": 1}}, [{"op": "copy", "from": "/a", "path": "/c"}, {"op": "add", "path": "/c/x", "value": 1}]),
        ),
        (json_merge_patch, ({"a": {"b": 1, "c": [1]}}, {"a": {"b": None, "d": {"e": None}}})),
    ],
)
def test_inputs_are_left_untouched(call: Any, args: tuple[Any, ...]) -> None:
    before = copy.deepcopy(args)
    call(*args)
    assert args == before
