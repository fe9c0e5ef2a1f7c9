#!/bin/bash
export OMP_NUM_THREADS=1
bin=${MINIAPP:-build/release/miniapp/miniapp}  # run from the repository root
$bin predict cavity --calibrate --calibration cal.json --measure --no-plots --output cavity > cavity.txt 2>&1
$bin predict cavity-3d --calibration cal.json --measure --no-plots --output cavity3d > cavity3d.txt 2>&1
$bin predict taylor-green-3d --set 'physics.les="wale"' --set 'mesh.cells=[24,24,24]' --calibration cal.json --measure --no-plots --output tg24_les > tg24_les.txt 2>&1
$bin predict taylor-green-3d --set 'physics.les="wale"' --set 'mesh.cells=[24,24,24]' --set 'numerics.poisson="pcg"' --calibration cal.json --measure --no-plots --output tg24_les_pcg > tg24_les_pcg.txt 2>&1
echo finished > done.txt
