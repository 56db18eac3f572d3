import os
import threading

from playground.workers import SIMULATION_NICENESS, yield_cpu_to_web_processes


def test_the_simulating_thread_yields_the_cpu_and_the_rest_of_the_process_does_not():
    seen: dict[str, int] = {}

    def simulate() -> None:
        yield_cpu_to_web_processes()
        seen["simulating"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    thread = threading.Thread(target=simulate)
    thread.start()
    thread.join()
    assert seen["simulating"] == max(before, SIMULATION_NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before
