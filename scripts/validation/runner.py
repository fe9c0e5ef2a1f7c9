"""Runs a case to its end time in chunks of bounded wall time, each continued from the previous
chunk's checkpoint (miniapp run --restart): no single command runs longer than the chunk limit. A
chunk stops at a step count (run.max_steps), so that run.end_time stays the run's own (the statistics
observers refuse an averaging start after it); one that would outrun its limit (the steps per second
were measured under another load) gets SIGTERM, on which miniapp checkpoints and stops."""
import os
import signal
import subprocess
import time

from .data import newest_checkpoint_step, read_diagnostics

# miniapp's refusal, before its first step, of a mesh that needs more device or host memory than the
# machine has (miniapp/run/memory_estimate.cpp: check_memory, check_host_memory).
MEMORY_REFUSAL = "use a coarser mesh"
SETUP_PROBE_STEPS = 20  # the first chunk's steps: measures set-up time and steps per second
MIN_CHUNK_SECONDS = 30  # a chunk shorter than this (or than twice the set-up) is not worth starting
STOP_GRACE_SECONDS = 60  # for the checkpoint of a chunk stopped by SIGTERM


class DoesNotFit(Exception):
    """A run whose mesh this machine cannot hold (miniapp's message): the set goes on without it."""


def _memory_refusal(output):
    """miniapp's line refusing the mesh for want of memory, or None."""
    for line in output.splitlines():
        if MEMORY_REFUSAL in line and "memory" in line:
            return line.strip()
    return None


def _reached(out):
    """The simulated time and step of the run's newest complete checkpoint (0 without one): a
    generation is complete once its marker checkpoint_<step>.complete is written."""
    step = newest_checkpoint_step(out)
    if step is None:
        return 0.0, 0
    diagnostics = read_diagnostics(os.path.join(out, "diagnostics.csv"))
    times = [t for t, s in zip(diagnostics["time"], diagnostics["step"]) if s <= step]  # rows may skip steps
    return (times[-1] if times else 0.0), step


def _finished(out, end_time):
    """Whether the run's last step reached end_time (the steps made equal to land on it are not
    checkpointed: their states are in the diagnostics only)."""
    path = os.path.join(out, "diagnostics.csv")
    if not os.path.exists(path):
        return False
    times = read_diagnostics(path)["time"]
    return bool(times) and times[-1] >= end_time * (1 - 1e-9)


def _miniapp_command(miniapp, run, out, backend, stop, restart):
    command = [miniapp, "run", run.case, "--quiet", "--backend", backend]
    for s in run.command_overrides() + [f"output.directory={out}"] + stop:
        command += ["--set", s]
    if restart:
        command += ["--restart", out]
    return command


def run_in_chunks(miniapp, run, work, backend, chunk_seconds, log, deadline=None):
    """Runs `run` into work/<name> until its end time, or until no chunk would end before `deadline`
    (time.monotonic()); returns whether it reached the end. A run already (partly) done there is
    continued, so an interrupted validation resumes where it stopped. Raises DoesNotFit when miniapp
    refuses the run's mesh at its start for want of memory, SystemExit on any other failure."""
    out = os.path.join(work, run.name)
    os.makedirs(out, exist_ok=True)
    rate = None  # steps per wall second in the time loop
    setup = 0.0
    while True:
        if _finished(out, run.end_time):
            return True
        reached, step = _reached(out)
        seconds = chunk_seconds if deadline is None else min(chunk_seconds, deadline - time.monotonic() - 60)
        if seconds < max(MIN_CHUNK_SECONDS, 2 * setup):
            log(f"  stopped at t = {reached:g}: no time left for another chunk (rerun to continue)")
            return False
        steps = SETUP_PROBE_STEPS if rate is None else max(1, int(rate * max(0.8 * seconds - setup,
                                                                            0.1 * seconds)))
        stop = [f"run.max_steps={step + steps}", f"run.end_time={run.end_time!r}"]
        command = _miniapp_command(miniapp, run, out, backend, stop, restart=step > 0)
        log(f"  $ {' '.join(command)}")
        started = time.monotonic()
        code, output = run_within(command, seconds, log)
        wall = time.monotonic() - started
        if code not in (0, 128 + signal.SIGTERM):
            refusal = _memory_refusal(output) if step == 0 else None
            if refusal:
                raise DoesNotFit(refusal)
            raise SystemExit(f"{run.name}: miniapp failed (exit {code}):\n{output[-6000:]}")
        if _reached(out)[1] <= step:
            raise SystemExit(f"{run.name}: a chunk ended without a newer checkpoint in {out}; stopping "
                             f"rather than running it again")
        rate, setup = _chunk_speed(out, step, wall)


def run_within(command, seconds, log):
    """(exit code, output) of `command`, stopped by SIGTERM after `seconds` (miniapp then checkpoints
    and exits with 128 + SIGTERM) and killed if it has not stopped STOP_GRACE_SECONDS later."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output, _ = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        log(f"  the chunk reached its {seconds:.0f} s: stopping it with SIGTERM (it checkpoints)")
        process.send_signal(signal.SIGTERM)
        try:
            output, _ = process.communicate(timeout=STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise SystemExit(f"{command[0]} did not stop within {STOP_GRACE_SECONDS} s of SIGTERM; killed "
                             f"(rerun to continue from the last complete checkpoint)")
    return process.returncode, output


def _chunk_speed(out, first_step, wall):
    """Steps per second of time loop and the seconds outside it, from the chunk's rows in
    diagnostics.csv (wall_seconds: each row's step; with output.diagnostics_interval > 1 the rows
    sample the steps)."""
    d = read_diagnostics(os.path.join(out, "diagnostics.csv"))
    rows = [i for i, s in enumerate(d["step"]) if s > first_step]
    steps = d["step"][rows[-1]] - first_step
    loop = sum(d["wall_seconds"][i] for i in rows) * steps / len(rows)
    return steps / max(loop, 1e-9), max(wall - loop, 0.0)
