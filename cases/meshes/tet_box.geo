// Plain tetrahedral box [0,1]x[0,1]x[0,1] for the Gmsh reader tests; one patch "walls", volume 1.
h = 0.3;
Point(1) = {0, 0, 0, h}; Point(2) = {1, 0, 0, h}; Point(3) = {1, 1, 0, h}; Point(4) = {0, 1, 0, h};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
box[] = Extrude{0, 0, 1}{ Surface{1}; };
Physical Surface("walls") = Abs(CombinedBoundary{ Volume{box[1]}; });
Physical Volume("fluid") = {box[1]};
