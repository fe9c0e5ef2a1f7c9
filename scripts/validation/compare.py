"""One headline number against its reference value or range, and the target it must meet."""
from dataclasses import dataclass


@dataclass
class Comparison:
    run: str
    quantity: str
    computed: float         # None when the run could not give it
    low: float              # the reference (a value: low == high; a range of published values)
    high: float
    tolerance: float        # the target: |relative error| at most this (None: reported only)
    note: str = ""

    def error(self):
        """Relative error to the nearest end of the reference range (0 inside it)."""
        if self.computed is None:
            return None
        if self.computed < self.low:
            return (self.computed - self.low) / self.low
        if self.computed > self.high:
            return (self.computed - self.high) / self.high
        return 0.0

    def verdict(self):
        e = self.error()
        if e is None or self.tolerance is None:
            return "—"
        return "met" if abs(e) <= self.tolerance else "missed"

    def reference_text(self):
        return f"{self.low:.4g}" if self.low == self.high else f"{self.low:.4g}–{self.high:.4g}"
