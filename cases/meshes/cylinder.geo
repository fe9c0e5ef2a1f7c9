// Flow past a circular cylinder: diameter D = 1 centred at the origin, in the rectangle
// [-15, 25] x [-20, 20] (inlet 15 D upstream, outlet 25 D downstream, sides 20 D away: blockage
// D / 40 = 2.5 %). Triangles, sized by the distance to the cylinder and refined over the wake
// (x from 0.5 to 25, |y| < 2) and, finer still, over the near wake (x from 0.5 to x_near_wake,
// |y| < 1). Cell sizes are parameters: the shipped cylinder.msh takes the defaults (the near wake as
// the wake); README.md beside this file gives the command of each shipped mesh. With bl_first > 0 the
// cylinder's boundary layer gets rings of quadrangles (first thickness bl_first, growth bl_ratio, up
// to bl_thickness); the default 0 leaves the triangles alone, so the other meshes come out unchanged.
// Edge patches: inlet (x = -15), outlet (x = 25), sides (y = +-20), cylinder.
DefineConstant[
  h_cylinder = {0.025, Name "cell size on the cylinder"},
  h_wake = {0.1, Name "cell size in the wake"},
  h_far = {1.5, Name "cell size far away"},
  h_near_wake = {0.1, Name "cell size in the near wake"},
  x_near_wake = {3, Name "downstream end of the near wake"},
  bl_first = {0, Name "first boundary-layer cell on the cylinder (0: none)"},
  bl_ratio = {1.15, Name "growth of the boundary-layer cells"},
  bl_thickness = {0.06, Name "thickness of the boundary layer of quadrangles"}
];
x_in = -15; x_out = 25; y_side = 20; r = 0.5;
Point(1) = {x_in, -y_side, 0, h_far}; Point(2) = {x_out, -y_side, 0, h_far};
Point(3) = {x_out, y_side, 0, h_far}; Point(4) = {x_in, y_side, 0, h_far};
Point(5) = {0, 0, 0, h_cylinder};
Point(6) = {r, 0, 0, h_cylinder}; Point(7) = {0, r, 0, h_cylinder};
Point(8) = {-r, 0, 0, h_cylinder}; Point(9) = {0, -r, 0, h_cylinder};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Circle(5) = {6, 5, 7}; Circle(6) = {7, 5, 8}; Circle(7) = {8, 5, 9}; Circle(8) = {9, 5, 6};
Curve Loop(1) = {1, 2, 3, 4}; Curve Loop(2) = {5, 6, 7, 8};
Plane Surface(1) = {1, 2};

Field[1] = Distance; Field[1].CurvesList = {5, 6, 7, 8};
Field[2] = Threshold; Field[2].InField = 1; Field[2].SizeMin = h_cylinder; Field[2].SizeMax = h_far;
Field[2].DistMin = 0.02; Field[2].DistMax = 10;
Field[3] = Box; Field[3].VIn = h_wake; Field[3].VOut = h_far;
Field[3].XMin = 0.5; Field[3].XMax = x_out; Field[3].YMin = -2; Field[3].YMax = 2; Field[3].Thickness = 4;
Field[5] = Box; Field[5].VIn = h_near_wake; Field[5].VOut = h_far;
Field[5].XMin = 0.5; Field[5].XMax = x_near_wake; Field[5].YMin = -1; Field[5].YMax = 1; Field[5].Thickness = 1;
Field[4] = Min; Field[4].FieldsList = {2, 3, 5};
Background Field = 4;
If (bl_first > 0)
  Field[6] = BoundaryLayer; Field[6].EdgesList = {5, 6, 7, 8}; Field[6].hwall_n = bl_first;
  Field[6].ratio = bl_ratio; Field[6].thickness = bl_thickness; Field[6].hfar = h_cylinder; Field[6].Quads = 1;
  BoundaryLayer Field = 6;
EndIf
Mesh.MeshSizeExtendFromBoundary = 0; Mesh.MeshSizeFromPoints = 0; Mesh.MeshSizeFromCurvature = 0;

Physical Curve("inlet") = {4};
Physical Curve("outlet") = {2};
Physical Curve("sides") = {1, 3};
Physical Curve("cylinder") = {5, 6, 7, 8};
Physical Surface("fluid") = {1};
