// Tetrahedral box [0,1]x[0,2]x[0,0.5] whose opposite faces carry identical (periodic) surface meshes,
// for testing periodic requests. Patches xmin, xmax, ymin, ymax, zmin, zmax; volume 1.
lx = 1; ly = 2; lz = 0.5; h = 0.25;
Point(1) = {0, 0, 0, h}; Point(2) = {lx, 0, 0, h}; Point(3) = {lx, ly, 0, h}; Point(4) = {0, ly, 0, h};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
box[] = Extrude{0, 0, lz}{ Surface{1}; };
// Extrude returns {top, volume, sides in the order of the curves 1..4}: ymin, xmax, ymax, xmin.
Periodic Surface{box[3]} = {box[5]} Translate{lx, 0, 0};
Periodic Surface{box[4]} = {box[2]} Translate{0, ly, 0};
Periodic Surface{box[0]} = {1} Translate{0, 0, lz};
Physical Surface("xmin") = {box[5]};
Physical Surface("xmax") = {box[3]};
Physical Surface("ymin") = {box[2]};
Physical Surface("ymax") = {box[4]};
Physical Surface("zmin") = {1};
Physical Surface("zmax") = {box[0]};
Physical Volume("fluid") = {box[1]};
