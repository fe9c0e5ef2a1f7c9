"""The runs of the validation set: shipped cases with overrides, in a full (one GPU) and a quick (CPU) form."""
from dataclasses import dataclass, field

LES_MODELS = ("smagorinsky", "wale", "vreman", "sigma")
PCG = ["numerics.poisson=pcg", "numerics.preconditioner=amg"]  # the 3D pressure solve in place of the FFT path
FFT = ["numerics.poisson=fft"]  # the pairs' other member ("auto" keeps whichever is faster)


@dataclass
class Run:
    name: str                 # output folder under the work folder, and the label in tables
    case: str                 # shipped case (cases/<case>.toml)
    end_time: float
    overrides: list = field(default_factory=list)  # --set section.key=value, without the --set

    def command_overrides(self):
        return list(self.overrides)

    def description(self):
        """The overrides for the report, the wake probes counted rather than listed."""
        probes = [o for o in self.overrides if o.startswith("probes.")]
        text = " ".join(o for o in self.overrides if not o.startswith("probes."))
        return text + (f" and {len(probes)} wake probes (x = 0.6 to 3.0 on the centreline, over the span)" if probes else "")


def _taylor_green(cells, model, end_time, extra=()):
    name = f"tg{cells}-{model}"
    sets = [f"mesh.cells=[{cells},{cells},{cells}]", f"physics.les={model}",
            "output.fields=[]", "output.checkpoint_interval=0", *extra]
    return Run(name, "taylor-green-3d", end_time, sets)


def wake_probes(span, lines=4):
    """--set lines of the wake_<k>_z<j> probes on the wake's centreline, x = 0.6 to 3.0 in steps of 0.1 D,
    on `lines` lines spread evenly over the span: cylinder.py averages them over the span and in time
    for the recirculation length (one line at mid-span sees the span's variation of the mean as noise)."""
    return [f"probes.wake_{k:02d}_z{j}.position=[{0.6 + 0.1 * k:.1f},0.0,{span * (j + 0.5) / lines!r}]"
            for k in range(25) for j in range(lines)]


def full_set():
    """Issue 20's set on one GPU: Taylor-Green at 64³ with each LES model and at 128³, 256³ and 384³ without
    (384³, the resolution study's finest, to t = 10, past the peak, on the FFT path that "auto" takes at
    the coarser ones, without building the 3D solver beside it: 85 GB of device memory and 91 GB of host
    memory, an H200 host's),
    the channel at its three resolutions, the cylinder at Re 100 (on its mesh and on the medium one of
    the resolution study) and 3900 (on its mesh, on the Re-100 one, coarser in the near wake, and on one
    with the boundary layer resolved by quadrangles at the wall); the
    channel and the cylinder at Re 3900 also with the 3D PCG pressure (AMG) in place of the FFT path,
    to compare the two within their statistical uncertainty."""
    runs = [_taylor_green(64, m, 14.0) for m in LES_MODELS + ("none",)]  # none: the mesh's share of the miss
    runs += [_taylor_green(128, "none", 14.0), _taylor_green(256, "none", 14.0), _taylor_green(384, "none", 10.0, FFT)]
    channel = ["output.fields=[]"]
    cylinder_3900 = ["output.fields=[]", "output.diagnostics_interval=5"] + wake_probes(3.141592653589793)
    runs += [Run("channel", "channel", 100.0, channel + FFT),
             Run("channel-pcg", "channel", 100.0, channel + PCG),
             Run("channel-fine", "channel", 60.0, ["mesh.cells=[96,64,64]", "statistics.start_time=30",
                                                   "output.fields=[]"]),
             Run("channel-finer", "channel", 60.0, ["mesh.cells=[192,64,128]", "statistics.start_time=30",
                                                    "output.fields=[]"]),
             Run("cylinder-re100", "cylinder", 150.0, ["output.fields=[]", "output.diagnostics_interval=10"]),
             Run("cylinder-re100-medium", "cylinder", 150.0, ["mesh.file=meshes/cylinder_medium.msh",
                                                              "output.fields=[]", "output.diagnostics_interval=10"]),
             Run("cylinder-3900", "cylinder-3900", 350.0, cylinder_3900 + FFT),
             Run("cylinder-3900-pcg", "cylinder-3900", 350.0, cylinder_3900 + PCG),
             Run("cylinder-3900-re100-mesh", "cylinder-3900", 150.0,
                 ["mesh.file=meshes/cylinder.msh"] + cylinder_3900),
             Run("cylinder-3900-boundary-layer", "cylinder-3900", 350.0,
                 ["mesh.file=meshes/cylinder_boundary_layer.msh", "output.fields=[]", "output.diagnostics_interval=10"]
                 + wake_probes(3.141592653589793))]
    return runs


def cpu_pairs_set():
    """The FFT and the 3D PCG pressure paths on cases one CPU core runs in minutes each: the channel on a
    minimal box (π × 2 × π/2 at the case's resolution, to t = 60) and cylinder-3900 on the coarse mesh
    (0.1 D on the cylinder, 16 layers over the span). Their profiles and forces are no test of the
    targets (a minimal channel bursts; the coarse mesh under-resolves the wake); the pairs' agreement
    within their statistical uncertainty is the result, where no GPU is at hand for the full cases."""
    box = ["mesh.cells=[24,48,16]", "mesh.length=[3.141592653589793,2.0,1.5707963267948966]",
           "statistics.start_time=15", "output.fields=[]"]
    cylinder = ["mesh.file=meshes/cylinder_coarse.msh", "mesh.layers=16", "statistics.start_time=40",
                "output.fields=[]", "output.diagnostics_interval=5"] + wake_probes(3.141592653589793)
    return [Run("minimal-channel-fft", "channel", 60.0, box + FFT),
            Run("minimal-channel-pcg", "channel", 60.0, box + PCG),
            Run("coarse-cylinder-3900-fft", "cylinder-3900", 100.0, cylinder + FFT),
            Run("coarse-cylinder-3900-pcg", "cylinder-3900", 100.0, cylinder + PCG)]


def quick_set():
    """The same pipeline on meshes a laptop runs in minutes: only shows that every step works."""
    runs = [_taylor_green(24, m, 12.0) for m in ("none",) + LES_MODELS]
    channel = ["mesh.cells=[16,24,12]", "statistics.start_time=2", "output.fields=[]"]
    cylinder_3900 = ["mesh.file=meshes/cylinder_coarse.msh", "mesh.layers=4", "statistics.start_time=1",
                     "output.fields=[]"] + wake_probes(3.141592653589793)
    runs += [Run("channel", "channel", 5.0, channel + FFT),
             Run("channel-pcg", "channel", 5.0, channel + PCG),
             Run("cylinder-re100", "cylinder", 80.0, ["mesh.file=meshes/cylinder_coarse.msh", "statistics.start_time=50",
                                                "output.fields=[]"]),
             Run("cylinder-3900", "cylinder-3900", 2.0, cylinder_3900 + FFT),
             Run("cylinder-3900-pcg", "cylinder-3900", 2.0, cylinder_3900 + PCG)]
    return runs


@dataclass
class RunSet:
    """A set of runs validate.py knows: its runs, its section's title, and the line that says what the
    set shows ({chunk_minutes} filled in). The full set's name is "" (its section's markers have none)."""
    runs: object  # () -> [Run]
    title: str
    mode: str


SETS = {
    "": RunSet(full_set, "Turbulent cases against published data",
               "The full set, each run in chunks of at most {chunk_minutes:g} minutes continued by restarts."),
    "quick": RunSet(quick_set, "The validation pipeline, quick mode",
                    "**Quick mode** (CPU, meshes and times far too small for the targets: it shows that the "
                    "runs, restarts, analyses and plots work, not that the numbers are right)."),
    "cpu-pairs": RunSet(cpu_pairs_set, "FFT against PCG pressure on cases a CPU runs",
                        "**The pressure-path pairs on a CPU** (a minimal channel and cylinder-3900 on the coarse "
                        "mesh: the pairs' agreement is the result; their comparisons with published data are no "
                        "test of the targets)."),
}


def select_runs(runs, names):
    """The runs `names` select, in the set's order: a name that is a run's selects that run alone (so
    "channel" leaves out "channel-fine"), any other the runs whose names start with it ("tg64")."""
    own = {r.name for r in runs}
    exact = {n for n in names if n in own}
    prefixes = tuple(n for n in names if n not in own)
    return [r for r in runs if r.name in exact or (prefixes and r.name.startswith(prefixes))]
