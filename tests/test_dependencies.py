"""The installed environment is the one the project declares."""

from __future__ import annotations

import _rl_accel
from reportlab.lib import rl_accel


def test_reportlab_runs_with_its_c_accelerator():
    # reportlab falls back to pure Python silently when rl_accel is missing
    for name in ("fp_str", "instanceStringWidthTTF", "escapePDF", "sameFrag"):
        assert getattr(rl_accel, name) is getattr(_rl_accel, name), name
