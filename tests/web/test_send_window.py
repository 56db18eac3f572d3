import json

from playground.send_window import SendWindow


def test_a_stamped_frame_is_the_same_json_with_a_mark_and_counts_as_sent():
    window = SendWindow(max_chars=100, max_frames=10)
    stamped = window.stamp('{"type": "changed", "version": 3}')
    frame = json.loads(stamped)
    assert frame.pop("mark") and frame == {"type": "changed", "version": 3}
    assert window.unacked == window.sent == len(stamped) and window.frames_in_flight == 1


def test_an_ack_acknowledges_its_frame_and_every_one_before_it_once():
    window = SendWindow(max_chars=1000, max_frames=10)
    marks = [json.loads(window.stamp(f'{{"n": {n}}}'))["mark"] for n in range(3)]
    assert window.ack(marks[1])
    assert window.frames_in_flight == 1 and window.unacked == len(f'{{"mark": "{marks[2]}", "n": 2}}')
    assert not window.ack(marks[0])  # already acknowledged
    assert not window.ack("not-a-mark") and window.frames_in_flight == 1
    assert window.ack(marks[2]) and window.unacked == 0


def test_a_frame_fits_within_the_window_or_alone_and_never_beyond_the_frame_count():
    window = SendWindow(max_chars=100, max_frames=2)
    assert window.fits(5000)  # nothing in flight: even a frame larger than the window goes
    window.stamp('{"a": "' + "x" * 60 + '"}')
    assert not window.fits(50) and window.fits(10) and window.has_room()
    window.stamp('{"b": 1}')
    assert not window.fits(1) and not window.has_room()  # two frames in flight: the count is full


def test_marks_are_unguessable_strings_of_their_own_across_refills():
    from playground.send_window import MarkSource

    source = MarkSource(batch=4)  # refills every four marks
    drawn = [source.next() for _ in range(50)]
    assert len(set(drawn)) == 50
    assert all(len(mark) == 8 and mark.replace("-", "").replace("_", "").isalnum() for mark in drawn)
