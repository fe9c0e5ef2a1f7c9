// Mixed-element mesh for the Gmsh reader tests: a box [0,2]x[0,1]x[0,1] whose half x < 1 holds
// transfinite hexahedra and whose half x > 1 holds tetrahedra, joined by pyramids on the shared
// quadrangle face, plus a layer of prisms extruded on top of the tetrahedral half (z in [1, 1.25]).
// Volume: 2 + 0.25 = 2.25. Patches: inlet (x = 0), outlet (x = 2), walls (the rest).
h = 0.34;
Point(1) = {0, 0, 0, h}; Point(2) = {1, 0, 0, h}; Point(3) = {2, 0, 0, h};
Point(4) = {0, 1, 0, h}; Point(5) = {1, 1, 0, h}; Point(6) = {2, 1, 0, h};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {4, 5}; Line(4) = {5, 6};
Line(5) = {1, 4}; Line(6) = {2, 5}; Line(7) = {3, 6};
Curve Loop(1) = {1, 6, -3, -5}; Plane Surface(1) = {1};
Curve Loop(2) = {2, 7, -4, -6}; Plane Surface(2) = {2};
Transfinite Curve{1, 3, 5, 6} = 4;
Transfinite Surface{1};
Recombine Surface{1};
hex[] = Extrude{0, 0, 1}{ Surface{1}; Layers{3}; Recombine; };
tet[] = Extrude{0, 0, 1}{ Surface{2}; };
prism[] = Extrude{0, 0, 0.25}{ Surface{tet[0]}; Layers{2}; Recombine; };

eps = 1e-6;
inlet[] = Surface In BoundingBox{-eps, -eps, -eps, eps, 1 + eps, 1.25 + eps};
outlet[] = Surface In BoundingBox{2 - eps, -eps, -eps, 2 + eps, 1 + eps, 1.25 + eps};
walls[] = Abs(CombinedBoundary{ Volume{hex[1], tet[1], prism[1]}; });
walls[] -= {inlet[], outlet[]};
Physical Surface("inlet") = {inlet[]};
Physical Surface("outlet") = {outlet[]};
Physical Surface("walls") = {walls[]};
Physical Volume("fluid") = {hex[1], tet[1], prism[1]};
