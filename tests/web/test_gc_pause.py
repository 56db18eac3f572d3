"""The collector pause (playground/gc_pause.py) nests and overlaps across threads, and leaves the
collector as it found it."""

import gc
import threading

from playground.gc_pause import collector_paused


def test_pauses_nest_and_the_collector_runs_again_after_the_last():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer one is still on
    assert gc.isenabled()


def test_overlapping_pauses_in_threads_end_with_the_collector_running():
    entered, release = threading.Barrier(3), threading.Event()

    def pause() -> None:
        with collector_paused():
            entered.wait()
            release.wait()

    threads = [threading.Thread(target=pause) for _ in range(2)]
    for thread in threads:
        thread.start()
    entered.wait()
    assert not gc.isenabled()
    release.set()
    for thread in threads:
        thread.join()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_a_pause_still_ends_it():
    try:
        with collector_paused():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()
