// Includes its sibling by bare name: found only when this folder is an include directory.
include "Parts.td"
def Wheel : Part<"wheel">;
