"""Shared by the Python tests."""
import os
import signal
import threading

import pytest


@pytest.fixture
def interrupted_after():
    """interrupted_after(seconds, study): runs study() while a timer thread
    sends this process a real SIGINT after `seconds`. Python delivers it to
    the main thread, which polls for it while a saltus study computes on a
    thread of its own (python/interruptible.h)."""
    def run(seconds, study):
        sender = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
        sender.start()
        try:
            return study()
        finally:
            sender.cancel()
    return run
