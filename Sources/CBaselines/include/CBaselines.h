#include "baseline_png.h"
#include "baseline_composite.h"
