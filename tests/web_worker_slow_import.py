"""A module whose import keeps the process importing it busy for a second: the web app's fork
server imports a worker's preload itself, so while it does, what its workers and the server do piles
up unanswered (tests/test_web_worker.py)."""

import time

time.sleep(1.0)
