"""Run events on the wire (playground/wire.py): compact, and grouped into messages of bounded size."""

import json

from playground.wire import MAX_MESSAGE_CHARS, batches, encode_event, run_events_message


def test_events_are_grouped_whole_and_in_order_within_the_limit():
    encoded = [encode_event(seq, {"event": None, "changes": [{"op": "pod", "key": "x" * 90}]}) for seq in range(1, 101)]
    groups = list(batches(encoded, limit=1000))
    assert [event for group in groups for event in group] == encoded  # nothing lost, nothing reordered
    assert all(sum(len(event) + 1 for event in group) <= 1000 for group in groups)
    assert len(groups) > 10


def test_an_event_longer_than_the_limit_goes_alone():
    small, big = encode_event(1, {"changes": []}), encode_event(2, {"changes": ["y" * 5000]})
    assert list(batches([small, big, small], limit=1000)) == [[small], [big], [small]]


def test_a_message_is_valid_json_with_its_fields_and_events():
    events = [encode_event(3, {"event": {"reason": "Scheduled"}, "changes": []}), encode_event(4, {"changes": []})]
    message = json.loads(run_events_message(7, events, sent=1.5))
    assert message == {
        "type": "run.events",
        "run": 7,
        "sent": 1.5,
        "events": [{"seq": 3, "event": {"reason": "Scheduled"}, "changes": []}, {"seq": 4, "changes": []}],
    }
    assert json.loads(run_events_message(7, [])) == {"type": "run.events", "run": 7, "events": []}
    assert ", " not in events[0] and ": " not in events[0]  # no padding after separators
    assert MAX_MESSAGE_CHARS <= 1 << 19  # half of Daphne's 1 MiB: room for the mark and the envelope
