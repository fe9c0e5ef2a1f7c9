"""scripts/validation/uncertainty.py on synthetic series whose standard error is known: white noise and
first-order autoregressive (AR(1)) noise, and the FFT-against-PCG agreement test built on them."""
import math
import os
import random
import re
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from validation.uncertainty import Agreement, agreement_table, common_window_agreement, time_mean  # noqa: E402


def ar1(rng, n, phi, dt=0.01, offset=0.0):
    """x_{i+1} = φ x_i + e_i with unit-variance x (started stationary), sampled every dt."""
    x = rng.gauss(0, 1)
    out = []
    for _ in range(n):
        out.append(offset + x)
        x = phi * x + math.sqrt(1 - phi * phi) * rng.gauss(0, 1)
    return [i * dt for i in range(n)], out


class TimeMeanTest(unittest.TestCase):
    def test_white_noise_standard_error_is_s_over_root_n(self):
        rng = random.Random(1)
        t, y = ar1(rng, 4000, 0.0)
        m = time_mean(t, y)
        self.assertGreaterEqual(m.batches, 5)
        self.assertAlmostEqual(m.sigma, 1 / math.sqrt(4000), delta=0.4 / math.sqrt(4000))

    def test_correlated_noise_sigma_matches_the_scatter_of_independent_runs(self):
        # AR(1) with φ = 0.95: var(mean) = (1 + φ)/(1 − φ)/N, 6.2 times white noise's standard error.
        rng = random.Random(2)
        phi, n = 0.95, 3000
        exact = math.sqrt((1 + phi) / (1 - phi) / n)
        estimates = [time_mean(*ar1(rng, n, phi)) for _ in range(60)]
        mean_sigma = sum(e.sigma for e in estimates) / len(estimates)
        scatter = math.sqrt(sum(e.mean ** 2 for e in estimates) / len(estimates))
        self.assertAlmostEqual(mean_sigma / exact, 1.0, delta=0.25)
        self.assertAlmostEqual(scatter / exact, 1.0, delta=0.3)
        # τ of AR(1) sampled every dt: (1 + φ)/(2 (1 − φ)) dt
        tau = sum(e.tau for e in estimates) / len(estimates)
        self.assertAlmostEqual(tau / ((1 + phi) / (2 * (1 - phi)) * 0.01), 1.0, delta=0.3)
        covered = sum(abs(e.mean) <= 2 * e.sigma for e in estimates) / len(estimates)
        self.assertGreater(covered, 0.8)

    def test_a_window_shorter_than_a_few_integral_times_falls_back_to_tau(self):
        rng = random.Random(3)
        t, y = ar1(rng, 400, 0.999)  # τ = 10 time units over a window of 4
        m = time_mean(t, y)
        self.assertEqual(m.batches, 0)
        self.assertIn("from τ", m.method())
        self.assertGreater(m.sigma, 0.1)  # a few correlation times: the mean is barely known

    def test_start_selects_the_window_and_too_few_samples_are_refused(self):
        t = [0.1 * i for i in range(100)]
        y = [100.0 if x < 5 else (1.0 if i % 2 else -1.0) for i, x in enumerate(t)]
        self.assertAlmostEqual(time_mean(t, y, start=5.0).mean, 0.0, delta=0.05)
        with self.assertRaises(ValueError):
            time_mean(t, y, start=9.8)

    def test_end_closes_the_window(self):
        t = [0.1 * i for i in range(100)]
        y = [100.0 if x > 5 else (1.0 if i % 2 else -1.0) for i, x in enumerate(t)]
        self.assertAlmostEqual(time_mean(t, y, end=5.0).mean, 0.0, delta=0.05)


class AgreementTest(unittest.TestCase):
    def test_same_process_agrees_and_a_shift_of_many_sigma_does_not(self):
        rng = random.Random(4)
        a = time_mean(*ar1(rng, 3000, 0.9))
        b = time_mean(*ar1(rng, 3000, 0.9))
        c = time_mean(*ar1(rng, 3000, 0.9, offset=1.0))  # 1.0 is about 10 σ of the difference
        same, shifted = Agreement("x", a, b), Agreement("x", a, c)
        self.assertLess(same.k(), 3)
        self.assertGreater(shifted.k(), 5)
        text = agreement_table(("FFT", "PCG"), [same, shifted])
        lines = text.splitlines()
        # Markdown cells: the header's |Δ| escaped, so that it has as many cells as the rows.
        cells = [len(re.findall(r"(?<!\\)\|", line)) for line in lines[:4]]
        self.assertEqual(cells, [cells[0]] * 4)
        self.assertTrue(lines[2].endswith("| yes |") or same.k() > 2)
        self.assertTrue(lines[3].endswith("| no |"))
        notes = [line for line in lines if line.startswith("- ")]  # each run's window and method, named
        self.assertEqual([n.split(":")[0] for n in notes], ["- x, FFT", "- x, PCG"] * 2)

    def test_runs_of_different_lengths_are_compared_over_the_shorter_one(self):
        # The same process in both runs, but the longer one drifts after the shorter one's end: over
        # the whole of each the means differ by half the drift, over the common window they agree.
        rng = random.Random(5)
        t, y = ar1(rng, 3000, 0.9)
        long_t, long_y = ar1(rng, 6000, 0.9)
        long_y = [v + (10.0 if x > t[-1] else 0.0) for x, v in zip(long_t, long_y)]
        whole = Agreement("x", time_mean(t, y, 1.0), time_mean(long_t, long_y, 1.0))
        common = common_window_agreement("x", (t, y), (long_t, long_y), 1.0)
        self.assertGreater(abs(whole.a.mean - whole.b.mean), 4)
        self.assertLess(common.k(), 2)
        self.assertEqual(common.a.window, common.b.window)
        self.assertLessEqual(common.b.window[1], t[-1])


if __name__ == "__main__":
    unittest.main()
