"""Functions that fail the way a hostile or buggy build could, for the worker process to run."""

import os
import time


def abort(*args):
    os.abort()                      # dies of a signal, as a crash in C code would


def exit_quietly(*args):
    os._exit(3)


def sleep(seconds, *args):
    time.sleep(float(seconds))
    return "woke"


def allocate(gib, *args):
    return len(bytearray(int(float(gib) * 1024 ** 3)))


def fail(*args):
    raise RuntimeError("a bug in the build")


def count_up(n, progress=None):
    for i in range(int(n)):
        progress(i + 1)
    return "counted"


REMEMBERED = []


def remember(value, *args):
    REMEMBERED.append(value)            # state a later call in the same process would see
    return list(REMEMBERED)


def surroundings(name, *args):
    return os.getcwd(), os.environ.get(name)
