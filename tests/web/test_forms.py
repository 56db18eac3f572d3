"""The board's query as views read it: validated by a form, defaults for what does not validate."""

from django.test import RequestFactory

from playground.forms import BoardQuery, BoardQueryForm

factory = RequestFactory()


def test_nothing_asked_is_the_default_board():
    assert BoardQueryForm.of(factory.get("/s/x/board")) == BoardQuery()


def test_the_query_string_names_the_view_the_groups_and_the_search():
    request = factory.get("/s/x/board", {"view": "table", "group": "zone", "then": "rack", "q": "  gpu "})
    assert BoardQueryForm.of(request) == BoardQuery(view="table", group="zone", then="rack", query="gpu")


def test_an_edit_redraws_the_board_its_form_describes_but_never_searches_it():
    request = factory.post("/s/x/nodes/add", {"view": "dots", "group": "", "q": "ignored"})
    assert BoardQueryForm.of(request) == BoardQuery(view="dots", group="", query="")


def test_odd_values_fall_back_instead_of_failing():
    request = factory.get("/s/x/board", {"view": "sideways", "group": "k" * 400, "q": "x" * 500})
    asked = BoardQueryForm.of(request)
    assert asked.view == "auto"  # an unknown view: the board picks by size
    assert asked.group == ""  # asked for, but no label key can be that long: no grouping
    assert asked.query == "x" * 100


def test_the_compare_form_takes_a_preset_the_pasted_yaml_and_a_seed_within_int32():
    from playground import compare
    from playground.forms import CompareForm, CompareQuery

    assert CompareForm.of(factory.get("/s/x/compare")) == CompareQuery(compare.DEFAULT_PRESET, "", 0, sent=False)
    pasted = "kind: KubeSchedulerConfiguration\n  odd: indent\n"
    asked = CompareForm.of(factory.get("/s/x/compare", {"config": "custom", "config_yaml": pasted, "seed": "7"}))
    assert asked == CompareQuery("custom", pasted, 7, sent=True)  # the YAML as pasted, for its lines
    odd = CompareForm.of(factory.get("/s/x/compare", {"config": "nonsense", "seed": str(2**40)}))
    assert (odd.preset, odd.seed, odd.sent) == (compare.DEFAULT_PRESET, 2**31 - 1, True)
    assert CompareForm.of(factory.get("/s/x/compare", {"seed": "-3"})).seed == 0


def test_the_explain_query_bounds_what_it_reads():
    from playground.forms import ExplainQuery, ExplainQueryForm

    asked = ExplainQueryForm.of(factory.get("/x", {"pod": "default/web-1", "seq": "42", "node": "worker2"}))
    assert asked == ExplainQuery("default/web-1", 42, "worker2")
    odd = ExplainQueryForm.of(factory.get("/x", {"pod": "p" * 400, "seq": "minus one", "node": "n" * 300}))
    assert (len(odd.pod), odd.seq, len(odd.node)) == (300, 1, 253)
    assert ExplainQueryForm.of(factory.get("/x", {"seq": "-5"})).seq == 1


def test_an_act_keeps_what_was_typed_and_reads_its_numbers_or_their_defaults():
    from playground.forms import ActForm

    asked = ActForm.of(factory.post("/x", {"op": "cordon", "target": " Node/worker1 ", "at": "2s", "version": "3"}))
    assert (asked.op, asked.target, asked.at, asked.version, asked.run) == ("cordon", "Node/worker1", "2s", 3, 0)
    odd = ActForm.of(factory.post("/x", {"op": "x" * 300, "version": "three", "run": "?"}))
    assert (odd.version, odd.run, odd.at) == (-1, 0, "0")  # a stale version: the edit is refused as such
    assert odd.chosen() == {"op": "x" * 200, "target": "", "value": ""}


def test_a_node_template_reads_its_zones_count_capacity_and_prefix():
    from playground.forms import NodeTemplateForm

    asked = NodeTemplateForm.of(
        factory.post("/x", {"zones": " a, b,,c ", "per_zone": "2", "cpu": "8", "prefix": "gpu"})
    )
    assert (asked.zones, asked.per_zone, asked.prefix) == (["a", "b", "c"], 2, "gpu")
    assert asked.capacity == {"cpu": "8", "memory": "16Gi", "pods": "110"}  # the rest: the defaults
    odd = NodeTemplateForm.of(factory.post("/x", {"per_zone": "many", "prefix": ""}))
    assert (odd.zones, odd.per_zone, odd.prefix) == ([], 1, "node")  # the board then says what is missing


def test_a_node_edit_keeps_strings_as_typed_and_capacity_only_what_was_sent():
    from playground.forms import NodeEditForm

    edit = NodeEditForm.of(
        factory.post("/x", {"key": " zone ", "value": "a", "memory": "8Gi", "extended_name": " gpu "})
    )
    assert edit["key"] == " zone "  # the board trims or refuses; the form does not decide for it
    assert edit.capacity() == {"memory": "8Gi", "gpu": ""}  # cpu and pods were not sent: unchanged
    assert edit.old_taint() is None and edit.taint() == {"key": " zone ", "value": "a", "effect": ""}
    moved = NodeEditForm.of(
        factory.post("/x", {"key": "k", "effect": "NoSchedule", "old_key": "j", "old_effect": "NoExecute"})
    )
    assert moved.old_taint() == {"key": "j", "effect": "NoExecute"}


def test_a_runs_seed_is_a_number_within_int32_or_zero():
    from playground.forms import RunStartForm

    seeds = ["7", "", "seven", "-4", str(2**40)]
    assert [RunStartForm.of(factory.post("/run", {"seed": seed})) for seed in seeds] == [7, 0, 0, 0, 2**31 - 1]
    assert RunStartForm.of(factory.post("/run")) == 0


def test_runs_named_in_a_query_are_absent_a_number_or_no_run_at_all():
    from playground.forms import RunChoiceForm

    asked = RunChoiceForm.of(factory.get("/s/x/compare", {"a": "12", "b": "twelve", "run": ""}))
    assert asked == {"run": None, "a": 12, "b": -1}  # -1: no run has it, so the page answers 404


def test_an_edit_without_a_readable_version_is_stale():
    from playground.forms import EditVersionForm

    assert EditVersionForm.of(factory.post("/e", {"version": "3"})) == 3
    assert EditVersionForm.of(factory.post("/e", {"version": "3.5"})) == -1
    assert EditVersionForm.of(factory.post("/e")) == -1


def test_the_import_form_takes_a_file_over_its_text_and_refuses_a_file_too_big():
    from django.core.files.uploadedfile import SimpleUploadedFile

    from playground.forms import ImportForm
    from playground.scenarios import InvalidEdit

    nodes = SimpleUploadedFile("nodes.yaml", b"kind: List\n")
    request = factory.post("/i", {"nodes_file": nodes, "nodes_yaml": "ignored", "pods_yaml": "a\r\nb"})
    sources = ImportForm.of(request, max_upload=100)
    assert not isinstance(sources.nodes, str) and sources.nodes.read() == b"kind: List\n"
    assert sources.pods == "a\nb"  # pasted text with the editor's line breaks
    empty = SimpleUploadedFile("pods.yaml", b"")
    assert ImportForm.of(factory.post("/i", {"pods_file": empty, "pods_yaml": "p"}), max_upload=100).pods == "p"
    big = SimpleUploadedFile("pods.yaml.gz", b"x" * 2_000_000)
    try:
        ImportForm.of(factory.post("/i", {"pods_file": big}), max_upload=1_048_576)
    except InvalidEdit as refused:
        assert str(refused).startswith("pods: the file is 1.91 MiB; an import takes files of at most 1 MiB (gzip it")
    else:
        raise AssertionError("a file over the limit was taken")


def test_typed_texts_reach_the_board_as_typed():
    from playground.forms import ClaimEditForm, DetailsForm, PaletteChipForm, PaletteEdit

    assert DetailsForm.of(factory.post("/d", {"title": "  Spread  "})) == ("  Spread  ", "")
    chip = {"op": "add", "kind": "taint", "key": "gpu", "value": "", "effect": "NoSchedule"}
    assert PaletteChipForm.of(factory.post("/p", chip)) == PaletteEdit(**chip)
    assert PaletteChipForm.of(factory.post("/p")) == PaletteEdit("", "", "", "", "")
    assert ClaimEditForm.of(factory.post("/c", {"key": " https://x/s/a/edit#k "})) == " https://x/s/a/edit#k "


def test_an_export_names_one_of_its_parts_or_gets_the_kubernetes_objects():
    from playground.forms import ExportForm

    parts = ["timeline", "all", "", "secrets"]
    assert [ExportForm.of(factory.get("/x", {"part": part})) for part in parts] == ["timeline", "all", "", ""]


def test_the_traffic_query_names_what_to_fix():
    from playground.forms import TrafficQueryForm
    from playground.traffic import Probe, TrafficQuery, TrafficQueryError

    def asked(**query: str) -> TrafficQuery:
        return TrafficQueryForm.of(factory.get("/t", query))

    assert asked(seq="4") == TrafficQuery(4, 100)
    assert asked(seq="4", requests="10", host=" App.Example.com ") == TrafficQuery(4, 10, Probe("app.example.com", "/"))
    assert asked(seq="0", path="/cart", header="X-Canary: always") == TrafficQuery(
        0, 100, Probe("", "/cart", (("X-Canary", "always"),))
    )
    refusals = {
        "seq (the event to show) is required": {},
        "seq (the event to show) must be a whole number from 0 to": {"seq": "-1"},
        "requests must be a whole number from 1 to 1000": {"seq": "1", "requests": "lots"},
        "host must be a DNS name such as app.example.com": {"seq": "1", "host": "a b\x00"},
        "path must start with / and have no spaces": {"seq": "1", "path": "cart"},
        "header must be Name: value": {"seq": "1", "header": "X-Canary"},
        "the header's value must be printable text": {"seq": "1", "header": "X: \x01"},
    }
    for message, query in refusals.items():
        try:
            asked(**query)
        except TrafficQueryError as refused:
            assert str(refused).startswith(message), (query, str(refused))
        else:
            raise AssertionError(f"{query} was taken")


def test_a_board_partial_names_a_node_or_asks_for_the_whole_board():
    from playground.forms import NodeQueryForm

    assert NodeQueryForm.of(factory.get("/b")) is None
    assert NodeQueryForm.of(factory.get("/b", {"node": "worker 1"})) == "worker 1"
    assert NodeQueryForm.of(factory.get("/b", {"node": ""})) == ""  # asked for, and no card has it: 404


def test_numbers_are_read_as_int_reads_them_and_blank_is_absent():
    from playground.forms import EditVersionForm, RunChoiceForm, RunStartForm, TrafficQueryForm
    from playground.traffic import TrafficQuery, TrafficQueryError

    assert RunStartForm.of(factory.post("/run", {"seed": "5.0"})) == 0  # not a whole number: the default
    assert RunStartForm.of(factory.post("/run", {"seed": " 5 "})) == 5
    assert EditVersionForm.of(factory.post("/e", {"version": "5.0"})) == -1
    assert TrafficQueryForm.of(factory.get("/t", {"seq": "3", "requests": " "})) == TrafficQuery(3, 100)
    for query, message in (({"seq": " "}, "seq (the event to show) is required"), ({"seq": "3.0"}, "seq (the event")):
        try:
            TrafficQueryForm.of(factory.get("/t", query))
        except TrafficQueryError as refused:
            assert str(refused).startswith(message)
        else:
            raise AssertionError(f"{query} was taken")
    # The scenario page ignores a ?run= that is not a number; a comparison's side is then no run (404).
    assert RunChoiceForm.of(factory.get("/s", {"run": "abc", "a": "abc", "b": "-1"})) == {"run": None, "a": -1, "b": -1}
    assert RunChoiceForm.of(factory.get("/s", {"run": "-1"}))["run"] == -1


def test_texts_the_board_checks_reach_it_as_sent():
    from playground.forms import NodeEditForm, ScenarioQueryForm, WorkloadEditForm

    assert NodeEditForm.of(factory.post("/n", {"name": "bad\x00name"}))["name"] == "bad\x00name"  # the board says why
    assert ScenarioQueryForm.of(factory.get("/v", {"scenario": " abcdefghijklmnopq"})) == " abcdefghijklmno"
    # A fork takes the whole text only: patch fields with bad offsets are not read (no 500).
    sent = {"workload": "a\r\nb\rc", "workload_base": "x", "workload_from": "one"}
    assert WorkloadEditForm.whole_text(factory.post("/f", sent)) == "a\nb\nc"
    assert WorkloadEditForm.whole_text(factory.post("/f", {})) is None
