#pragma once
// Moved to analyses/two_fold/map.h: it is an analysis, not a test function.
// This forwarding header keeps bench/ building until bench/ includes the new
// path; new code includes analyses/two_fold/map.h.
#include "analyses/two_fold/map.h"
