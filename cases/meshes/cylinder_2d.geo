// 2D channel [0,4]x[0,2] around a cylinder of radius 0.25 at (1,1), for extrusion: triangles around
// the cylinder (x < 2), transfinite quadrangles downstream (x > 2). Area 8 - pi/16.
// Edge patches inlet (x = 0), outlet (x = 4), walls (y = 0 and y = 2), cylinder.
h = 0.25; r = 0.25;
Point(1) = {0, 0, 0, h}; Point(2) = {2, 0, 0, h}; Point(3) = {4, 0, 0, h};
Point(4) = {4, 2, 0, h}; Point(5) = {2, 2, 0, h}; Point(6) = {0, 2, 0, h};
Point(7) = {1, 1, 0, h};
Point(8) = {1 + r, 1, 0, h / 3}; Point(9) = {1, 1 + r, 0, h / 3};
Point(10) = {1 - r, 1, 0, h / 3}; Point(11) = {1, 1 - r, 0, h / 3};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 5}; Line(5) = {5, 6};
Line(6) = {6, 1}; Line(7) = {2, 5};
Circle(8) = {8, 7, 9}; Circle(9) = {9, 7, 10}; Circle(10) = {10, 7, 11}; Circle(11) = {11, 7, 8};
Curve Loop(1) = {1, 7, 5, 6}; Curve Loop(2) = {8, 9, 10, 11};
Plane Surface(1) = {1, 2};
Curve Loop(3) = {2, 3, 4, -7}; Plane Surface(2) = {3};
Transfinite Curve{2, 4} = 9; Transfinite Curve{3, 7} = 9;
Transfinite Surface{2}; Recombine Surface{2};
Physical Curve("inlet") = {6};
Physical Curve("outlet") = {3};
Physical Curve("walls") = {1, 2, 4, 5};
Physical Curve("cylinder") = {8, 9, 10, 11};
Physical Surface("fluid") = {1, 2};
