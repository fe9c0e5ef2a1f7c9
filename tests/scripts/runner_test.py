"""scripts/validation/runner.py's chunk limit: a command that outruns it gets SIGTERM (miniapp's signal
to checkpoint and stop), and one that ignores SIGTERM is killed with a message instead of a hang."""
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from validation import runner  # noqa: E402

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


if __name__ == "__main__":
    unittest.main()
