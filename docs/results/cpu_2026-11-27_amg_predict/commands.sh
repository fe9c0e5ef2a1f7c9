#!/bin/bash
# AMG in miniapp predict on the CPU (docs/cost-model.md): one calibration (with the pcg_amg unit), two
# AMG cases and the AIP-1 cavity-3d as a control, all measured on one thread. Run from an empty folder;
# start.txt and done.txt keep the time and the load average around the runs.
export OMP_NUM_THREADS=1
bin=${MINIAPP:-build/cpu/miniapp/miniapp}
(date -u; uptime) > start.txt
$bin predict cavity-3d --set 'numerics.preconditioner="amg"' --calibrate --calibration cal.json --measure --no-plots --output cavity3d_amg > cavity3d_amg.txt 2>&1
$bin predict taylor-green-3d --set 'physics.les="wale"' --set 'mesh.cells=[24,24,24]' --set 'numerics.poisson="pcg"' --set 'numerics.preconditioner="amg"' --calibration cal.json --measure --no-plots --output tg24_les_amg > tg24_les_amg.txt 2>&1
# The control names AIP-1: since 2026-12-02 (1fbb4ec) "auto" takes AMG on cavity-3d's 32³ cells.
$bin predict cavity-3d --set 'numerics.preconditioner="aip1"' --calibration cal.json --measure --no-plots --output cavity3d_aip > cavity3d_aip.txt 2>&1
(date -u; uptime) > done.txt
