"""scripts/validation/runner.py's chunk limit: a command that outruns it gets SIGTERM (miniapp's signal
to checkpoint and stop), and one that ignores SIGTERM is killed with a message instead of a hang; a
run whose mesh the machine cannot hold is told apart from one that fails."""
import os
import stat
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from validation import runner  # noqa: E402
from validation.runs import Run  # noqa: E402

# A stand-in for miniapp: works until SIGTERM, then "checkpoints" and exits as miniapp does (128 + 15).
STOPS_ON_SIGTERM = """
import signal, sys, time
def stop(*_):
    print("checkpoint written", flush=True)
    sys.exit(128 + signal.SIGTERM)
signal.signal(signal.SIGTERM, stop)
print("running", flush=True)
time.sleep(60)
"""
IGNORES_SIGTERM = """
import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("running", flush=True)
time.sleep(60)
"""


class RunWithinTest(unittest.TestCase):
    def test_a_command_within_its_limit_keeps_its_exit_code_and_output(self):
        code, output = runner.run_within([sys.executable, "-c", "print('done')"], 30, lambda s: None)
        self.assertEqual((code, output.strip()), (0, "done"))

    def test_a_command_past_its_limit_is_stopped_by_sigterm_and_checkpoints(self):
        log = []
        code, output = runner.run_within([sys.executable, "-c", STOPS_ON_SIGTERM], 1, log.append)
        self.assertEqual(code, 143)
        self.assertIn("checkpoint written", output)
        self.assertIn("SIGTERM", log[0])

    def test_a_command_that_ignores_sigterm_is_killed_with_a_message(self):
        with mock.patch.object(runner, "STOP_GRACE_SECONDS", 1):
            with self.assertRaises(SystemExit) as stopped:
                runner.run_within([sys.executable, "-c", IGNORES_SIGTERM], 1, lambda s: None)
        self.assertIn("did not stop", str(stopped.exception))



def fake_miniapp(folder, message):
    """An executable standing in for miniapp that prints `message` as miniapp prints an error and exits 1."""
    path = os.path.join(folder, "miniapp")
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\necho 'miniapp run: error: {message}' >&2\nexit 1\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


class RunInChunksTest(unittest.TestCase):
    def run_failing_with(self, message):
        with tempfile.TemporaryDirectory() as work:
            miniapp = fake_miniapp(work, message)
            runner.run_in_chunks(miniapp, Run("tg384-none", "taylor-green-3d", 10.0), work, "cuda", 60,
                                 lambda s: None)

    def test_a_mesh_the_device_cannot_hold_is_not_run_and_says_why(self):
        refusal = ("mesh needs 85.08 GB of device memory, 79.10 GB free on cuda:0 (79.19 GB in all, room for "
                   "about 52000000 cells like these): use a coarser mesh or a device with more memory")
        with self.assertRaises(runner.DoesNotFit) as skipped:
            self.run_failing_with(refusal)
        self.assertIn("85.08 GB of device memory", str(skipped.exception))

    def test_any_other_failure_stops_the_set(self):
        with self.assertRaises(SystemExit) as stopped:
            self.run_failing_with("/work/cases/channel.toml: numerics.cfl: must be > 0")
        self.assertIn("miniapp failed (exit 1)", str(stopped.exception))


if __name__ == "__main__":
    unittest.main()
