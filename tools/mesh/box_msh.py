#!/usr/bin/env python3
"""Writes the unit cube as a binary Gmsh 4.1 mesh: N³ lattice cells, each split into 6 tetrahedra
(or kept as one hexahedron with --hex), with the six sides as physical surfaces xmin ... zmax (the
patch names of the generated boxes, so that cavity-3d runs on it unchanged). The cells, their vertex
order and the boundary triangles are those of `mesh.generator = "tet"` (mesh/box_generators.cpp) on
an unstretched box, so the two meshes have the same cells and faces.

Why: the several-rank start-up target (issue 24) reads a 5·10⁷-cell Gmsh file, and the repository
ships no writer. numpy, in chunks of z-layers: 5·10⁷ tets (2.3 GB) in tens of seconds, with a few
hundred MB of memory whatever the size.

Usage: tools/mesh/box_msh.py OUT.msh (--n N | --target-cells C) [--hex]
"""
import argparse
import sys
import time

import numpy as np

# The generator's split (box_generators.cpp, add_tetrahedra): tet t walks from the cell's local corner
# (0,0,0) to (1,1,1) along the axes in order ORDERS[t], local corner d being lattice offset d xor m,
# where m[a] is the parity of the cell's index along axis a; vertices listed for a positive volume.
ORDERS = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (1, 0, 2), (0, 2, 1), (2, 1, 0)]
HEX_CORNERS = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
SIDES = ["xmin", "xmax", "ymin", "ymax", "zmin", "zmax"]  # surface entity and physical tag i + 1


def tet_corners(m):
    """The 6 tets' 4 vertices as lattice offsets (di, dj, dk) in a cell mirrored along the axes where
    m[a] is 1, in the built-in generator's order."""
    def offset(d):
        return tuple(d[a] ^ m[a] for a in range(3))

    tets = []
    for t, order in enumerate(ORDERS):
        p = [0, 0, 0]
        walk = [offset(p)]
        for axis in order[:2]:
            p[axis] = 1
            walk.append(offset(p))
        walk.append(offset((1, 1, 1)))
        reversed_walk = (t >= 3) != (sum(m) % 2 == 1)
        tets.append([walk[0], walk[2], walk[1], walk[3]] if reversed_walk else walk)
    return tets


def parities():
    """The mirrorings m of a cell, indexed by m[0] + 2 m[1] + 4 m[2]."""
    return [(c % 2, c // 2 % 2, c // 4) for c in range(8)]


def write_header(f, section, *sizes):
    f.write(b"$" + section + b"\n")
    np.array(sizes, dtype=np.uint64).tofile(f)


def block_header(f, dim, entity, third, count):
    np.array([dim, entity, third], dtype=np.int32).tofile(f)
    np.array([count], dtype=np.uint64).tofile(f)


def write_mesh(path, n, hexes):
    m = n + 1  # lattice nodes per axis; node (i, j, k) has tag 1 + i + m (j + m k), as in BoxLattice
    corners = [[HEX_CORNERS] if hexes else tet_corners(p) for p in parities()]
    # delta[parity class, element of the cell, vertex]: node tag offsets from the cell's corner
    delta = np.array([[[di + m * (dj + m * dk) for di, dj, dk in cell] for cell in cls] for cls in corners],
                     dtype=np.uint64)
    per_cell, nodes_per = delta.shape[1:]  # elements per lattice cell, nodes per element
    cells = per_cell * n ** 3
    faces_per_side = n * n * (1 if hexes else 2)
    with open(path, "wb") as f:
        f.write(b"$MeshFormat\n4.1 1 8\n")
        np.array([1], dtype=np.int32).tofile(f)  # endianness check
        f.write(b"\n$EndMeshFormat\n$PhysicalNames\n7\n")
        f.write("".join(f'2 {s + 1} "{name}"\n' for s, name in enumerate(SIDES)).encode())
        f.write(b'3 7 "fluid"\n$EndPhysicalNames\n')

        write_header(f, b"Entities", 0, 0, 6, 1)
        for s in range(6):  # surface s + 1: bounding box, one physical tag, no bounding curves
            box = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
            box[s // 2 + (3 if s % 2 == 0 else 0)] = float(s % 2)  # the side's plane
            np.array([s + 1], dtype=np.int32).tofile(f)
            np.array(box, dtype=np.float64).tofile(f)
            np.array([1], dtype=np.uint64).tofile(f)
            np.array([s + 1], dtype=np.int32).tofile(f)
            np.array([0], dtype=np.uint64).tofile(f)
        np.array([1], dtype=np.int32).tofile(f)  # volume 1, physical 7, bounded by the six surfaces
        np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0], dtype=np.float64).tofile(f)
        np.array([1], dtype=np.uint64).tofile(f)
        np.array([7], dtype=np.int32).tofile(f)
        np.array([6], dtype=np.uint64).tofile(f)
        np.arange(1, 7, dtype=np.int32).tofile(f)
        f.write(b"\n$EndEntities\n")

        # All nodes in one block on the volume: their tags, then their coordinates, a z-plane at a time.
        write_header(f, b"Nodes", 1, m ** 3, 1, m ** 3)
        block_header(f, 3, 1, 0, m ** 3)
        np.arange(1, m ** 3 + 1, dtype=np.uint64).tofile(f)
        x = np.arange(m, dtype=np.float64) / n
        plane = np.empty((m, m, 3))  # [j, i, xyz]: i fastest
        plane[:, :, 0], plane[:, :, 1] = x[None, :], x[:, None]
        for k in range(m):
            plane[:, :, 2] = x[k]
            plane.tofile(f)
        f.write(b"\n$EndNodes\n")

        write_header(f, b"Elements", 7, cells + 6 * faces_per_side, 1, cells + 6 * faces_per_side)
        block_header(f, 3, 1, 5 if hexes else 4, cells)
        ij = np.arange(n, dtype=np.uint64)
        layer = (ij[None, :] + m * ij[:, None]).ravel() + 1  # first node tag of each cell of layer k = 0
        in_layer_class = ((ij[None, :] % 2) + 2 * (ij[:, None] % 2)).ravel()  # i fastest, then j
        record = np.empty((n * n, per_cell, 1 + nodes_per), dtype=np.uint64)  # tag, node tags
        for k in range(n):  # one z-layer of cells at a time, i fastest, then j: the generator's order
            first = 1 + k * n * n * per_cell
            record[:, :, 0] = np.arange(first, first + n * n * per_cell, dtype=np.uint64).reshape(n * n, per_cell)
            record[:, :, 1:] = (layer + np.uint64(k * m * m))[:, None, None] + delta[in_layer_class + 4 * (k % 2)]
            record.tofile(f)
        tag = 1 + cells
        u = np.repeat(np.arange(n, dtype=np.uint64), n)  # the generator's loop: u over axis b, v over c
        v = np.tile(np.arange(n, dtype=np.uint64), n)
        for s in range(6):  # side s: axis a at its lowest or highest plane; b, c the next axes
            a, b, c = s // 2, (s // 2 + 1) % 3, (s // 2 + 2) % 3
            stride = [1, m, m * m]

            def corner(du, dv):
                return 1 + (s % 2) * n * stride[a] + (u + du) * stride[b] + (v + dv) * stride[c]

            q00, q10, q11, q01 = corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)
            if hexes:
                faces = [np.stack([q00, q10, q11, q01], 1)]
            else:  # the diagonal from (1,0) to (0,1) where the cell is mirrored along just one of b, c
                flip = ((u % 2) != (v % 2))[:, None]
                faces = [np.where(flip, np.stack([q00, q10, q01], 1), np.stack([q00, q10, q11], 1)),
                         np.where(flip, np.stack([q10, q11, q01], 1), np.stack([q00, q01, q11], 1))]
            faces = np.stack(faces, 1).reshape(faces_per_side, -1)  # the two triangles of a square together
            block_header(f, 2, s + 1, 3 if hexes else 2, faces_per_side)
            tags = np.arange(tag, tag + faces_per_side, dtype=np.uint64)[:, None]
            np.hstack([tags, faces]).astype(np.uint64).tofile(f)
            tag += faces_per_side
        f.write(b"\n$EndElements\n")
    return cells, m ** 3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--n", type=int, help="lattice cells per axis")
    size.add_argument("--target-cells", type=float, help="about this many cells: N = round((C / 6)^(1/3)) for tets")
    p.add_argument("--hex", action="store_true", help="hexahedra instead of 6 tetrahedra per lattice cell")
    args = p.parse_args()
    n = args.n or max(1, round((args.target_cells / (1 if args.hex else 6)) ** (1 / 3)))
    start = time.time()
    cells, nodes = write_mesh(args.out, n, args.hex)
    with open(args.out, "rb") as f:
        size = f.seek(0, 2)
    print(f"{args.out}: {n}^3 box, {cells} {'hexahedra' if args.hex else 'tetrahedra'}, {nodes} nodes, "
          f"{size / 1e9:.2f} GB in {time.time() - start:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
