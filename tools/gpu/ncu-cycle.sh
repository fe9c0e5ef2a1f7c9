#!/usr/bin/env bash
# On a lent GPU machine whose runtime lets Nsight Compute read the hardware counters: the first
# iteration's V-cycle kernels of `miniapp poisson` with AMG (float matrices) on 10⁷ hex and tet cells
# (the fused SpMVs and the float SpMV that applies R), each with its time, DRAM bytes, L2 read traffic
# and hit rate, sectors per global load request, and the DRAM, L2 and L1 throughput as a share of
# their peaks: which unit bounds each kernel (docs/amg.md, *What bounds R*). The clocks are left alone.
# Usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/ncu-cycle.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/ncu-cycle.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-build/gpu}
budget=${MINIAPP_GPU_BUDGET:-300}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
for mesh in "hex 215" "tet 119"; do
  set -- $mesh
  # Two PCG iterations: the solve stops unconverged (exit 1), after the kernels this needs.
  step "ncu_$1" 150 "$ncu" --clock-control none --kernel-name regex:"sell_float_kernel|spmv_fused_kernel" \
    --launch-count 14 --metrics "$metrics" --csv "$bin" poisson --backend cuda --mesh "$1" --cells "$2,$2,$2" \
    --periodic none --preconditioner amg --amg-float --max-iter 2
done
python3 - "$out" >"$out/summary.md" <<'PY'
import csv, os, sys
for mesh in ("hex", "tet"):
    path = os.path.join(sys.argv[1], f"ncu_{mesh}.txt")
    rows = list(csv.reader(line for line in open(path) if line.startswith('"'))) if os.path.exists(path) else []
    if not rows:
        continue
    header, rows = rows[0], rows[1:]
    at = {name: header.index(name) for name in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
    launches = {}
    for r in rows:
        launch = launches.setdefault(int(r[at["ID"]]), {"kernel": r[at["Kernel Name"]]})
        launch[r[at["Metric Name"]]] = float(r[at["Metric Value"]].replace(",", ""))
    print(f"\n{mesh}\n")
    print("| launch | kernel | threads | µs | DRAM MB | TB/s | L2 read MB | L2 / DRAM | L2 hit | sectors / request "
          "| DRAM / L2 / L1 throughput, % of peak |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for i, m in sorted(launches.items()):
        kernel = m["kernel"].split("::")[-1].split("(")[0]
        us = m["gpu__time_duration.sum"] / 1e3
        dram = (m["dram__bytes_read.sum"] + m["dram__bytes_write.sum"]) / 1e6
        l2 = m["lts__t_sectors_op_read.sum"] * 32 / 1e6
        sectors = m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] / max(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 1)
        print(f"| {i} | `{kernel}` | {m['launch__grid_size'] * m['launch__block_size']:.0f} | {us:.1f} | {dram:.1f} | "
              f"{dram / us:.2f} | {l2:.1f} | {l2 / max(dram, 1e-9):.2f} | {m['lts__t_sector_op_read_hit_rate.pct']:.0f} % | "
              f"{sectors:.1f} | {m['dram__throughput.avg.pct_of_peak_sustained_elapsed']:.0f} / "
              f"{m['lts__throughput.avg.pct_of_peak_sustained_elapsed']:.0f} / "
              f"{m['l1tex__throughput.avg.pct_of_peak_sustained_elapsed']:.0f} |")
PY
cat "$out/summary.md" "$out/steps.txt"
