"""scripts/validation/wake.py on synthetic probes.csv files whose recirculation length is known: a mean
profile u = a (x − x0) on the wake probes of a cylinder-3900 run (several lines over the span), with
oscillations, spanwise offsets and non-uniform rows; the crossing after the profile's minimum; the
time weighting; the batch-means σ against the window's length; and the profiles that do not cross."""
import math
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from validation import cylinder, pressure_paths, wake  # noqa: E402
from validation.runs import Run, wake_probes  # noqa: E402

LINES = 4
PROBES = wake_probes(math.pi, LINES)  # wake_<kk>_z<j>: x = 0.6 + 0.1 k, z_j = π (j + ½) / 4
XS = [0.6 + 0.1 * k for k in range(25)]


def write_probes(folder, times, u):
    """probes.csv of the wake probes: u(x, j, i) the streamwise velocity at x on line j at row i."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "probes.csv")
    names = [f"wake_{k:02d}_z{j}" for k in range(25) for j in range(LINES)]
    with open(path, "w") as f:
        f.write("step,time," + ",".join(f"{n}_u,{n}_v" for n in names) + "\n")
        for i, t in enumerate(times):
            values = [u(XS[k], j, i) for k in range(25) for j in range(LINES)]
            f.write(f"{i},{t!r}," + ",".join(f"{v!r},0.0" for v in values) + "\n")
    return path


def irregular_times(rng, end, mean_step):
    """Rows from t = 0 to `end` at steps between 0.2 and 1.8 times `mean_step` (Δt varies)."""
    t, out = 0.0, []
    while t <= end:
        out.append(t)
        t += mean_step * rng.uniform(0.2, 1.8)
    return out


def ar1(rng, n, phi):
    """Unit-variance first-order autoregressive noise, n values."""
    x, out = rng.gauss(0, 1), []
    for _ in range(n):
        out.append(x)
        x = phi * x + math.sqrt(1 - phi * phi) * rng.gauss(0, 1)
    return out


def measured(folder, path, end_time):
    """cylinder.py's recirculation length of the file, as validate.py takes it (from the case's
    statistics.start_time, 110, unless the run's end comes first)."""
    run = Run(os.path.basename(folder), "cylinder-3900", end_time, list(PROBES))
    return cylinder.recirculation_length(run, *wake.read_probes(run, path))


class RecirculationLengthTest(unittest.TestCase):
    def test_a_known_profile_is_recovered_through_oscillations_span_offsets_and_uneven_rows(self):
        # Mean u = 0.5 (x − 1.9): L_r = 1.9 − 0.5 = 1.4. Each line carries an offset that cancels over the
        # four (one line alone would put the crossing 0.2 D off) and a shedding-like oscillation.
        rng = random.Random(1)
        times = irregular_times(rng, 200.0, 0.05)
        offsets = (0.1, -0.1, 0.05, -0.05)
        with tempfile.TemporaryDirectory() as work:
            folder = os.path.join(work, "cylinder-3900")
            path = write_probes(folder, times, lambda x, j, i: 0.5 * (x - 1.9) + offsets[j]
                                + 0.3 * math.sin(2 * math.pi * 0.21 * times[i] + 0.7 * j + x))
            lr = measured(folder, path, 200.0)
        self.assertAlmostEqual(lr.value, 1.4, delta=0.01)
        self.assertEqual(lr.window, (110.0, times[-1]))
        self.assertEqual(lr.batches, 8)
        # The oscillation leaves up to 0.03 D in a batch's L_r (a batch holds 2.5 of its periods).
        self.assertGreater(lr.sigma, 0.0)
        self.assertLess(lr.sigma, 0.03)
        self.assertIn("± ", lr.text())
        self.assertIn("(8 batch means)", lr.text())

    def test_the_crossing_after_the_profile_s_minimum_is_taken(self):
        # Near the base the mean is small and of either sign (an upward crossing at x = 0.65); the
        # reverse flow's minimum is at x = 1.2 and the profile turns positive at x = 2.0: L_r = 1.5.
        def mean(x):
            if x < 0.75:
                return -0.01 if round(10 * x) % 2 == 0 else 0.01
            return -0.3 + 0.3 * (x - 1.2) / 0.8 if x >= 1.2 else -0.3 * (x - 0.7) / 0.5
        line = [(x, mean(x)) for x in XS]
        self.assertAlmostEqual(wake.crossing(line), 1.5, delta=1e-9)
        self.assertGreater(line[1][1], 0)  # the early crossing is there to be mistaken
        t = [0.1 * i for i in range(200)]
        lines = {x: [[mean(x) + 0.02 * math.sin(3 * s + j) for s in t] for j in range(LINES)] for x in XS}
        self.assertAlmostEqual(wake.recirculation_length(t, lines, 0.0).value, 1.5, delta=0.01)

    def test_rows_are_weighted_by_their_spacing(self):
        # The oscillation is sampled ten times as densely while it is positive: a plain mean of the
        # samples lifts the profile by about 0.4 × 0.52 and moves the crossing 0.4 D upstream; the
        # time-weighted mean keeps L_r = 1.4.
        times, t = [], 0.0
        while t < 100.0:
            times.append(t)
            t += 0.01 if math.sin(2 * math.pi * t / 5) > 0 else 0.1

        def u(x, j, i):
            return 0.5 * (x - 1.9) + 0.4 * math.sin(2 * math.pi * times[i] / 5)
        with tempfile.TemporaryDirectory() as work:
            folder = os.path.join(work, "cylinder-3900")
            path = write_probes(folder, times, u)
            run = Run("cylinder-3900", "cylinder-3900", 100.0, list(PROBES) + ["statistics.start_time=0"])
            lr = cylinder.recirculation_length(run, *wake.read_probes(run, path))
        self.assertAlmostEqual(lr.value, 1.4, delta=0.01)
        plain = [(x, sum(u(x, 0, i) for i in range(len(times))) / len(times)) for x in XS]
        self.assertLess(wake.crossing(plain), 1.2)  # what a plain sum of the samples gives

    def test_sigma_falls_as_one_over_the_root_of_the_window(self):
        # The crossing wanders with AR(1) noise ξ of integral time about 1 (x0 = 1.9 + 0.3 ξ(t)), so the
        # standard error of L_r over a window T is about 0.3 √(2/T); over a window four times as long it
        # halves. Averaged over a few seeds, as one σ from 8 batches scatters by a quarter.
        def estimates(seed, length):
            rng = random.Random(seed)
            t = irregular_times(rng, length, 0.1)
            xi = ar1(rng, len(t), math.exp(-0.1))
            lines = {x: [[0.5 * (x - 1.9 - 0.3 * v) for v in xi]] for x in XS}
            return wake.recirculation_length(t, lines, 0.0)
        short = [estimates(s, 100.0) for s in range(16)]
        long = [estimates(100 + s, 400.0) for s in range(8)]
        short_sigma = sum(e.sigma for e in short) / len(short)
        self.assertAlmostEqual(short_sigma / (0.3 * math.sqrt(2 / 100.0)), 1.0, delta=0.3)
        self.assertAlmostEqual(short_sigma / (sum(e.sigma for e in long) / len(long)), 2.0, delta=0.5)
        # and σ is the scatter of L_r between independent windows of the same length
        centre = sum(e.value for e in short) / len(short)
        scatter = math.sqrt(sum((e.value - centre) ** 2 for e in short) / (len(short) - 1))
        self.assertAlmostEqual(scatter / short_sigma, 1.0, delta=0.4)

    def test_a_profile_that_never_turns_positive_has_no_length(self):
        t = [0.1 * i for i in range(200)]
        lines = {x: [[-0.2 + 0.05 * x + 0.01 * math.sin(s) for s in t]] for x in XS}  # −0.17 to −0.05
        lr = wake.recirculation_length(t, lines, 0.0)
        self.assertIsNone(lr.value)
        self.assertIsNone(lr.sigma)
        self.assertIn("does not turn positive", lr.reason)
        self.assertTrue(lr.text().startswith("no L_r"))

    def test_a_batch_without_a_crossing_leaves_sigma_undefined(self):
        # Over the whole window the profile crosses at x = 1.9, but in the last eighth the wake is all
        # reverse flow: σ is not made from the seven batches that cross.
        t = [0.1 * i for i in range(801)]
        lines = {x: [[0.5 * (x - 1.9) if s < 70 else -0.5 for s in t]] for x in XS}
        lr = wake.recirculation_length(t, lines, 0.0)
        self.assertIsNotNone(lr.value)
        self.assertIsNone(lr.sigma)
        self.assertIn("1 of 8 batches (t = 70–80)", lr.reason)
        with self.assertRaises(ValueError):
            wake.recirculation_length(t, lines, 0.0, batches=4)


class WeightsTest(unittest.TestCase):
    def test_the_weights_integrate_the_interpolant_and_batches_add_up(self):
        t = [0.0, 0.3, 1.0, 1.1, 2.5, 4.0]
        y = [1.0, 2.0, -1.0, 0.5, 3.0, 2.0]
        lo, w = wake.weights(t, 0.0, 4.0)
        trapezoid = sum((t[k + 1] - t[k]) * (y[k] + y[k + 1]) / 2 for k in range(len(t) - 1))
        self.assertAlmostEqual(sum(a * b for a, b in zip(w, y[lo:])), trapezoid, delta=1e-12)
        parts = 0.0
        for a, b in ((0.0, 0.7), (0.7, 2.0), (2.0, 4.0)):  # the window's ends between the samples
            lo, w = wake.weights(t, a, b)
            self.assertAlmostEqual(sum(w), b - a, delta=1e-12)
            parts += sum(p * q for p, q in zip(w, y[lo:]))
        self.assertAlmostEqual(parts, trapezoid, delta=1e-12)


class PairTest(unittest.TestCase):
    def test_the_pair_table_compares_l_r_over_the_common_window(self):
        # Two runs of the same wake, the second ending earlier, with L_r 1.4 until t = 150 and 0.9 after
        # in the longer one only: over the common window they agree.
        rng = random.Random(7)
        runs = [Run(n, "cylinder-3900", 200.0, list(PROBES)) for n in ("cylinder-3900", "cylinder-3900-pcg")]
        with tempfile.TemporaryDirectory() as work:
            for r, end in zip(runs, (200.0, 150.0)):
                times = irregular_times(rng, end, 0.1)
                xi = ar1(rng, len(times), 0.9)
                write_probes(os.path.join(work, r.name), times, lambda x, j, i: 0.5 * (
                    x - 1.9 + 0.05 * xi[i] + (0.5 if times[i] > 150 else 0.0)))
            lengths = pressure_paths.wake_lengths(runs, work, 110.0)
            row, missing = pressure_paths.wake_row(("FFT", "PCG"), lengths)
        self.assertEqual(missing, "")
        self.assertEqual(lengths[0].window, lengths[1].window)
        self.assertLessEqual(lengths[0].window[1], 150.0)
        self.assertAlmostEqual(lengths[0].value, 1.4, delta=0.02)
        self.assertLess(row.k(), 3)
        text = pressure_paths.agreement_table(("FFT", "PCG"), [row])
        self.assertIn(f"| L_r/D | {lengths[0].value:.5g} ± {lengths[0].sigma:.2g} | ", text)
        self.assertIn("τ = —, σ 8 batch means of L_r", text)

    def test_a_run_without_sigma_is_said_and_not_compared(self):
        lengths = [wake.WakeLength(1.4, 0.02, 8, (110.0, 150.0)),
                   wake.WakeLength(1.5, None, 8, (110.0, 150.0), "no crossing in 1 of 8 batches (t = 145–150)")]
        row, missing = pressure_paths.wake_row(("FFT", "PCG"), lengths)
        self.assertIsNone(row)
        self.assertIn("L_r/D: not compared", missing)
        self.assertIn("PCG: 1.500 ± — (no crossing in 1 of 8 batches", missing)


class SpanwiseCorrelationTest(unittest.TestCase):
    def test_a_two_dimensional_wake_correlates_fully_and_independent_lines_not_at_all(self):
        rng = random.Random(3)
        times = irregular_times(rng, 400.0, 0.05)
        shedding = [math.sin(2 * math.pi * 0.21 * s) for s in times]
        noise = [ar1(rng, len(times), 0.5) for _ in range(LINES)]
        x = XS[10]
        same = {x: [[0.2 + 0.3 * v for v in shedding] for _ in range(LINES)]}
        self.assertAlmostEqual(wake.spanwise_correlation(times, same, x, 0.0, 400.0), 1.0, delta=1e-9)
        apart = {x: [list(n) for n in noise]}
        self.assertLess(abs(wake.spanwise_correlation(times, apart, x, 0.0, 400.0)), 0.1)
        # The shedding a third of each line's variance (0.5 of 1.5): a correlation of one third.
        half = {x: [[s + n for s, n in zip(shedding, noise[j])] for j in range(LINES)]}
        self.assertAlmostEqual(wake.spanwise_correlation(times, half, x, 0.0, 400.0), 1 / 3, delta=0.1)

    def test_a_probe_without_fluctuations_or_a_single_line_has_none(self):
        t = [0.1 * i for i in range(100)]
        x = XS[0]
        self.assertIsNone(wake.spanwise_correlation(t, {x: [[1.0] * 100, [math.sin(s) for s in t]]}, x, 0.0, 9.9))
        self.assertIsNone(wake.spanwise_correlation(t, {x: [[math.sin(s) for s in t]]}, x, 0.0, 9.9))


class HistoryTest(unittest.TestCase):
    def test_each_window_s_drag_lift_length_and_correlation(self):
        # C_d = 1.1, C_l = 0.4 sin(ωt) (r.m.s. 0.4/√2), the mean u = 0.5 (x − 1.9) (L_r = 1.4), the
        # lines alike for t < 20 (a two-dimensional wake) and independent after.
        rng = random.Random(5)
        times = irregular_times(rng, 61.0, 0.02)
        noise = [ar1(rng, len(times), 0.3) for _ in range(LINES)]
        run = Run("cylinder-3900", "cylinder-3900", 60.0, list(PROBES))
        with tempfile.TemporaryDirectory() as work:
            folder = os.path.join(work, run.name)
            write_probes(folder, times, lambda x, j, i: 0.5 * (x - 1.9) + 0.1 * (
                math.sin(2 * math.pi * 0.21 * times[i]) if times[i] < 20 else noise[j][i]))
            with open(os.path.join(folder, "forces_cylinder.csv"), "w") as f:
                f.write("step,time,cd,cl\n")
                for i, s in enumerate(times):
                    f.write(f"{i},{s!r},1.1,{0.4 * math.sin(2 * math.pi * 0.21 * s)!r}\n")
            text = cylinder.analyse(run, folder)[2]
        rows = [r.split("|")[1:-1] for r in text.split("\n") if r.startswith("| ") and "–" in r]
        self.assertEqual([r[0].strip() for r in rows], ["0–20", "20–40", "40–60"])
        for r in rows:
            self.assertAlmostEqual(float(r[1]), 1.1, delta=1e-3)
            self.assertAlmostEqual(float(r[2]), 0.4 / math.sqrt(2), delta=0.01)
            self.assertAlmostEqual(float(r[3].split("±")[0]), 1.4, delta=0.02)
        self.assertGreater(float(rows[0][4]), 0.99)
        self.assertLess(abs(float(rows[1][4])), 0.2)

    def test_a_run_without_probes_or_shorter_than_a_window_has_no_history(self):
        with tempfile.TemporaryDirectory() as work:
            self.assertEqual(cylinder.analyse(Run("c", "cylinder-3900", 60.0, []), work)[2], "")
            run = Run("short", "cylinder-3900", 10.0, list(PROBES))
            folder = os.path.join(work, run.name)
            times = [0.1 * i for i in range(101)]
            write_probes(folder, times, lambda x, j, i: x - 1.9 + 0.1 * math.sin(times[i] + j))
            with open(os.path.join(folder, "forces_cylinder.csv"), "w") as f:
                f.write("step,time,cd,cl\n" + "".join(f"{i},{s!r},1.0,0.0\n" for i, s in enumerate(times)))
            self.assertEqual(cylinder.analyse(run, folder)[2], "")


if __name__ == "__main__":
    unittest.main()
