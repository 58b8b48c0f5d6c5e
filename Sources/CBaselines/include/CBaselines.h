#include "baseline_png.h"
#include "baseline_fast.h"
