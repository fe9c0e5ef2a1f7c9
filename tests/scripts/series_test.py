"""scripts/validation/series.py's frequency estimates on synthetic signals of known frequency: the
crossings of the mean on a clean periodic signal, the spectrum's peak also on a wandering one with
ripples, where the crossings count the ripples."""
import math
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from validation import series  # noqa: E402


def samples(signal, end=60.0, count=3000, seed=3):
    """signal(t) at `count` times over [0, end], spaced unevenly (as rows every few adaptive steps)."""
    rng = random.Random(seed)
    t = sorted([0.0, end] + [rng.uniform(0, end) for _ in range(count - 2)])
    return t, [signal(x) for x in t]


class FrequencyTest(unittest.TestCase):
    def test_a_clean_periodic_signal_gives_its_frequency_both_ways(self):
        t, y = samples(lambda x: 0.3 + math.sin(2 * math.pi * 0.21 * x + 0.4))
        self.assertAlmostEqual(series.frequency(t, y), 0.21, delta=0.002)
        self.assertAlmostEqual(series.spectral_frequency(t, y), 0.21, delta=0.002)

    def test_the_spectrum_finds_a_wandering_frequency_under_ripples_that_the_crossings_count(self):
        rng = random.Random(7)
        drift = [rng.uniform(-0.4, 0.4) for _ in range(8)]  # a phase that wanders over the record

        def lift(x):
            phase = sum(a * math.sin(2 * math.pi * (k + 1) * x / 240) for k, a in enumerate(drift))
            return math.sin(2 * math.pi * 0.21 * x + phase) + 0.3 * math.sin(2 * math.pi * 1.3 * x)

        t, y = samples(lift)
        self.assertGreater(series.frequency(t, y), 0.21 * 1.2)  # the ripples' crossings counted
        self.assertAlmostEqual(series.spectral_frequency(t, y), 0.21, delta=0.21 * 0.03)

    def test_a_constant_signal_has_no_frequency(self):
        t, y = samples(lambda x: 1.5, count=200)
        self.assertIsNone(series.spectral_frequency(t, y))


if __name__ == "__main__":
    unittest.main()
