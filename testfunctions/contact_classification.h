#pragma once
// Moved to analyses/contact/classification.h: it is an analysis, not a test function.
// This forwarding header keeps bench/ building until bench/ includes the new
// path; new code includes analyses/contact/classification.h.
#include "analyses/contact/classification.h"
